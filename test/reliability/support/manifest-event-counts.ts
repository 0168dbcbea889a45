import { type AbiEvent, type Hex, toEventSelector } from "viem";
import { MANIFEST_CONTRACT_SOURCES, manifestContractEvents, ponderSignature } from "../../../devnet/src/index";
import type { DevnetManifest } from "../../../src/namespaces/devnet-manifest";
import { PLUGIN_NAMES, type PluginName, pluginDefinition } from "../../../src/plugins";

/*
 * Ponder's completed-events counter (`<plugin>/<contract name>:<event>`) against the logs the devnet's scenario
 * counted while it played (the manifest's `scenario.eventCounts`, by datasource, contract and event). For chains too
 * large to read back with one eth_getLogs (final-chain-events.ts does that for small, reorged ones).
 */

function selectorOf(events: AbiEvent[], label: string): Hex | undefined {
  const overloaded = (name: string) => events.filter((e) => e.name === name).length > 1;
  const event = events.find((e) => (overloaded(e.name) ? ponderSignature(e) : e.name) === label);
  return event ? toEventSelector(event) : undefined;
}

export function compareWithManifestCounts(
  manifest: DevnetManifest,
  ponder: Record<string, number>,
): { differences: string[]; compared: number; counted: number } {
  const counts = manifest.scenario.eventCounts as Record<string, number>;
  const differences: string[] = [];
  let compared = 0;
  let counted = 0;
  for (const [key, n] of Object.entries(ponder)) {
    const [, plugin, name, label] = key.match(/^([^/]+)\/([^:]+):(.+)$/) ?? [];
    // A setup event runs once per contract at the start, no log behind it.
    if (label === "setup") continue;
    const pc = (PLUGIN_NAMES as readonly string[]).includes(plugin!)
      ? pluginDefinition(plugin as PluginName).contracts.find((c) => c.name === name)
      : undefined;
    const sources = pc && MANIFEST_CONTRACT_SOURCES[pc.datasource]?.[pc.contract];
    const selector =
      pc &&
      selectorOf(
        pc.abi.filter((i): i is AbiEvent => i.type === "event"),
        label!,
      );
    const event = sources && selector && manifestContractEvents(sources).find((e) => e.selector === selector);
    if (!pc || !event) {
      differences.push(`${key}: no plugin contract or manifest event found for it`);
      continue;
    }
    const expected = counts[`${pc.datasource}/${pc.contract}:${event.name}`] ?? 0;
    compared++;
    counted += n;
    if (n !== expected) differences.push(`${key}: Ponder ${n}, the scenario's logs ${expected}`);
  }
  return { differences, compared, counted };
}
