import { type Abi, type AbiEvent, type Address, getAbiItem, type Hex, type PublicClient } from "viem";
import { devnetAbis } from "../../devnet/src/contracts";

/*
 * What the chain says about the ENSv2 registries' ERC-1155 transfers, for the tests that hold the index (and Ponder's
 * own counters) against it: read with eth_getLogs from the devnet, not from the index.
 */

const REGISTRY = devnetAbis().PermissionedRegistry as Abi;
const event = (name: string) => getAbiItem({ abi: REGISTRY, name }) as AbiEvent;

export const TRANSFER_EVENTS = ["TransferSingle", "TransferBatch"] as const;

/** A decoded log, the fields these tests read. */
export interface DecodedLog<Args> {
  address: Address;
  blockNumber: bigint;
  logIndex: number;
  transactionHash: Hex;
  topics: Hex[];
  eventName: string;
  args: Args;
}
export type TransferLog = DecodedLog<{ to: Address; id?: bigint; ids?: readonly bigint[] }>;

const inChainOrder = <L extends { blockNumber: bigint; logIndex: number }>(logs: L[]): L[] =>
  logs.sort((a, b) => Number(a.blockNumber - b.blockNumber) || a.logIndex - b.logIndex);

/** Every TransferSingle and TransferBatch log `addresses` emitted, decoded, in chain order. */
export async function transferLogs(client: PublicClient, addresses: Address[]): Promise<TransferLog[]> {
  const logs = await client.getLogs({
    address: addresses,
    events: TRANSFER_EVENTS.map(event),
    fromBlock: 0n,
    toBlock: "latest",
  });
  return inChainOrder(logs as unknown as TransferLog[]);
}

/** Where each address was first named by a SubregistryUpdated of any contract: the first link. */
export async function firstLinks(client: PublicClient): Promise<Map<Address, { block: bigint; logIndex: number }>> {
  const logs = (await client.getLogs({
    event: event("SubregistryUpdated"),
    fromBlock: 0n,
    toBlock: "latest",
  })) as unknown as DecodedLog<{ subregistry: Address }>[];
  const out = new Map<Address, { block: bigint; logIndex: number }>();
  for (const l of inChainOrder(logs)) {
    const named = l.args.subregistry.toLowerCase() as Address;
    if (!out.has(named)) out.set(named, { block: l.blockNumber, logIndex: l.logIndex });
  }
  return out;
}

/** Ponder's `ponder_indexing_completed_events` gauge by event name, as the indexer's /metrics shows it. */
export async function completedEvents(indexerUrl: string): Promise<Map<string, number>> {
  const text = await (await fetch(`${indexerUrl}/metrics`)).text();
  const out = new Map<string, number>();
  for (const m of text.matchAll(/^ponder_indexing_completed_events\{event="([^"]+)"\} (\d+)$/gm)) {
    out.set(m[1]!, Number(m[2]));
  }
  return out;
}
