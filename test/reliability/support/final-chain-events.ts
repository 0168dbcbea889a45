import type { Hex } from "viem";
import { MANIFEST_CONTRACT_SOURCES, manifestContractEvents } from "../../../devnet/src/index";
import type { DevnetManifest } from "../../../src/namespaces/devnet-manifest";
import { rpc } from "../../support/devnet-fixture";

/*
 * What the chains hold now, counted the way Ponder names its events: the logs of every manifest contract (an
 * address-less one, such as Resolver, by its events' topics from any address) from its start block to the head, keyed
 * `<datasource>/<Contract>:<Event>`. Compared with `ponder_indexing_completed_events`, whose keys carry the plugin
 * first, after a reorg it tells whether Ponder indexed exactly the final chains' events.
 */

export async function finalChainEventCounts(manifest: DevnetManifest): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const [ds, datasource] of Object.entries(manifest.datasources)) {
    const url = manifest.chains[String(datasource.chainId)]!.rpcUrl;
    const head = Number(await rpc<Hex>(url, "eth_blockNumber"));
    for (const [contract, ref] of Object.entries(datasource.contracts)) {
      const events = manifestContractEvents(MANIFEST_CONTRACT_SOURCES[ds]![contract]!);
      const logs = await rpc<{ topics: Hex[] }[]>(url, "eth_getLogs", [
        {
          fromBlock: `0x${ref.startBlock.toString(16)}`,
          toBlock: `0x${head.toString(16)}`,
          ...(ref.address ? { address: ref.address } : {}),
          topics: [events.map((e) => e.selector)],
        },
      ]);
      for (const e of events) {
        const n = logs.filter((l) => l.topics[0] === e.selector).length;
        if (n > 0) counts[`${ds}/${contract}:${e.name}`] = n;
      }
    }
  }
  return counts;
}

/**
 * Ponder's completed events (`<plugin>/<datasource>/<Contract>:<Event>`) against the chains' logs: every key Ponder
 * counted must match the logs of its contract and event. Returns the differences, and the events short of the chains.
 */
export function compareEventCounts(ponder: Record<string, number>, chains: Record<string, number>): { differences: string[]; missing: number; counted: number } {
  const differences: string[] = [];
  let missing = 0;
  let counted = 0;
  for (const [key, n] of Object.entries(ponder)) {
    const chainKey = key.slice(key.indexOf("/") + 1);
    const expected = chains[chainKey] ?? 0;
    counted += n;
    if (n !== expected) differences.push(`${key}: Ponder ${n}, chain ${expected}`);
    missing += Math.max(0, expected - n);
  }
  return { differences, missing, counted };
}
