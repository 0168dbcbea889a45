import type { AbiEvent } from "viem";
import { MANIFEST_CONTRACT_SOURCES, manifestContractEvents } from "../../../devnet/src/index";
import type { DevnetManifest } from "../../../src/namespaces/devnet-manifest";
import { counterEvent, selectorOf } from "./final-chain-events";

/*
 * Ponder's completed-events counter (`<plugin>/<contract name>:<event>`) against the logs the devnet's scenario
 * counted while it played (the manifest's `scenario.eventCounts`, by datasource, contract and event, and
 * `scenario.ensv2.eventCounts` by ENSv2 contract), for chains too large to read back with one eth_getLogs
 * (final-chain-events.ts reads small, reorged ones back).
 * - A contract at known addresses: Ponder's count equals the scenario's; an event its devnet contract cannot emit,
 *   zero.
 * - A contract matched by its ABI at every address (the resolvers; ENSv2's `Registry`, docs/ensv2.md): at least its
 *   own contracts' logs, since the same topics from other contracts on the chain are its events too (a 3DNS
 *   resolver's DNS records are a Basenames-chain resolver event).
 * - ENSv2's `LinkedRegistry` (the registries a SubregistryUpdated names, a factory): at most the transfers of every
 *   registry but the root, since a registry's transfers before it is named are fetched at the link, not handed to
 *   the handlers (test/ensv2/chain-truth.system.test.ts counts them exactly).
 */

export interface EventCountComparison {
  differences: string[];
  /** Event kinds compared, and how many of them the chains hold logs of. */
  compared: number;
  nonEmpty: number;
  counted: number;
}

export function compareWithManifestCounts(
  manifest: DevnetManifest,
  ponder: Record<string, number>,
): EventCountComparison {
  const scenario = manifest.scenario as {
    eventCounts: Record<string, number>;
    ensv2?: { eventCounts: Record<string, number> };
  };
  const differences: string[] = [];
  let compared = 0;
  let nonEmpty = 0;
  let counted = 0;
  for (const [key, n] of Object.entries(ponder)) {
    const { label, pc } = counterEvent(key);
    // A setup event runs once per contract at the start, no log behind it.
    if (label === "setup") continue;
    if (!pc) {
      differences.push(`${key}: no plugin contract of that name`);
      continue;
    }
    let expected: number;
    let atLeast = false;
    let atMost = false;
    if (pc.datasource === "ensv2") {
      const eventName = label!.replace(/\(.*$/, "");
      const linked = pc.name === "LinkedRegistry";
      const ofContract = (contract: string) =>
        linked
          ? contract.endsWith("Registry") && contract !== "RootRegistry"
          : pc.contract === "Registry"
            ? contract.endsWith("Registry")
            : contract === pc.contract;
      expected = Object.entries(scenario.ensv2?.eventCounts ?? {})
        .filter(([k]) => ofContract(k.slice(0, k.indexOf(":"))) && k.slice(k.indexOf(":") + 1) === eventName)
        .reduce((sum, [, count]) => sum + count, 0);
      atLeast = pc.contract === "Registry" && !linked;
      atMost = linked;
    } else {
      const sources = MANIFEST_CONTRACT_SOURCES[pc.datasource]?.[pc.contract];
      const selector = selectorOf(
        pc.abi.filter((i): i is AbiEvent => i.type === "event"),
        label!,
      );
      if (!sources || !selector) {
        differences.push(`${key}: no devnet contract or ABI event for it`);
        continue;
      }
      const event = manifestContractEvents(sources).find((e) => e.selector === selector);
      expected = event ? (scenario.eventCounts[`${pc.datasource}/${pc.contract}:${event.name}`] ?? 0) : 0;
      atLeast = !manifest.datasources[pc.datasource]?.contracts[pc.contract]?.address;
    }
    compared++;
    if (expected > 0) nonEmpty++;
    counted += n;
    if (atLeast ? n < expected : atMost ? n > expected : n !== expected)
      differences.push(
        `${key}: Ponder ${n}, the scenario's logs ${atLeast ? "at least " : atMost ? "at most " : ""}${expected}`,
      );
  }
  return { differences, compared, nonEmpty, counted };
}
