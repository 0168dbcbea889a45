import { type AbiEvent, type Hex, toEventSelector } from "viem";
import { ponderSignature } from "../../../devnet/src/index";
import { rpc } from "../../../harness/devnet-fixture";
import type { DevnetManifest } from "../../../src/namespaces/devnet-manifest";
import { PLUGIN_NAMES, type PluginName, pluginDefinition } from "../../../src/plugins";

/*
 * Ponder's completed-events counter (`<plugin>/<contract name>:<event>`) against the logs the chains hold now: each
 * key is traced back to its plugin contract (datasource, contract, ABI), the manifest gives that contract's chain,
 * address (none: any address) and start block, and the chain's logs from there to its head with the event's topic 0
 * are counted. After reorgs, this tells whether Ponder indexed exactly the final chains' events.
 */

interface LogRow {
  address: Hex;
  topics: Hex[];
}

/** The selector of a Ponder event label: the event's name, or its full signature where the ABI overloads the name. */
export function selectorOf(events: AbiEvent[], label: string): Hex | undefined {
  const overloaded = (name: string) => events.filter((e) => e.name === name).length > 1;
  const event = events.find((e) => (overloaded(e.name) ? ponderSignature(e) : e.name) === label);
  return event ? toEventSelector(event) : undefined;
}

/** A key of Ponder's completed-events counter (`<plugin>/<contract name>:<event>`): its event label and plugin contract. */
export function counterEvent(key: string) {
  const [, plugin, name, label] = key.match(/^([^/]+)\/([^:]+):(.+)$/) ?? [];
  const pc = (PLUGIN_NAMES as readonly string[]).includes(plugin!)
    ? pluginDefinition(plugin as PluginName).contracts.find((c) => c.name === name)
    : undefined;
  return { label, pc };
}

export async function compareWithFinalChains(
  manifest: DevnetManifest,
  ponder: Record<string, number>,
): Promise<{ differences: string[]; missing: number; counted: number; onChains: number }> {
  const logsCache = new Map<string, LogRow[]>();
  const logsFrom = async (chainId: number, address: string | undefined, startBlock: number): Promise<LogRow[]> => {
    const key = `${chainId}|${address ?? "any"}|${startBlock}`;
    let logs = logsCache.get(key);
    if (!logs) {
      const url = manifest.chains[String(chainId)]!.rpcUrl;
      const head = await rpc<Hex>(url, "eth_blockNumber");
      logs = await rpc<LogRow[]>(url, "eth_getLogs", [
        { fromBlock: `0x${startBlock.toString(16)}`, toBlock: head, ...(address ? { address } : {}) },
      ]);
      logsCache.set(key, logs);
    }
    return logs;
  };
  const differences: string[] = [];
  let missing = 0;
  let counted = 0;
  let onChains = 0;
  for (const [key, n] of Object.entries(ponder)) {
    const { label, pc } = counterEvent(key);
    // A setup event runs once per contract at the start, no log behind it.
    if (label === "setup") continue;
    const datasource = pc && manifest.datasources[pc.datasource];
    const ref = datasource?.contracts[pc!.contract];
    const selector =
      pc &&
      selectorOf(
        pc.abi.filter((i): i is AbiEvent => i.type === "event"),
        label!,
      );
    if (!pc || !datasource || !ref || !selector) {
      differences.push(`${key}: no plugin contract, manifest contract or event found for it`);
      continue;
    }
    const logs = await logsFrom(datasource.chainId, ref.address, ref.startBlock);
    const expected = logs.filter((l) => l.topics[0] === selector).length;
    counted += n;
    onChains += expected;
    if (n !== expected) differences.push(`${key}: Ponder ${n}, chain ${expected}`);
    missing += Math.max(0, expected - n);
  }
  return { differences, missing, counted, onChains };
}
