import type { Context } from "ponder:registry";
import * as schema from "ponder:schema";
import { type Address, decodeEventLog, type Hex, numberToHex, toEventSelector, zeroAddress } from "viem";
import { Ensv2RegistryTransfersAbi } from "../../../../abis/ensv2";
import { getConfig } from "../../../config";
import { registryId } from "../../../lib/ensv2-ids";
import { type LogEvent, recordFetchedLog } from "../../shared/indexed-log";
import { emitter, ensv2Anchors, type IndexedEvent, type IndexingContext } from "./context";
import { recordEvent } from "./events";
import { tokensTransferred } from "./lifecycle";
import { findRegistry } from "./registries";

/*
 * A registry's ERC-1155 transfers (docs/ensv2.md, "Which logs are fetched"). Ponder delivers the root's
 * (`ensv2/RootRegistry`) and those of every address a SubregistryUpdated names (`ensv2/LinkedRegistry`, a factory)
 * from the block it is first named; the ones a registry emitted before, which Ponder never delivers, are fetched and
 * applied when it is first named, before the link itself.
 */

type SingleArgs = { id: bigint; value: bigint; to: Address };
type BatchArgs = { ids: readonly bigint[]; values: readonly bigint[]; to: Address };

/** TransferSingle of a registry: the holder moves; the log joins ensv2_event. */
export async function singleTransferred(context: IndexingContext, event: IndexedEvent<SingleArgs>): Promise<void> {
  const { id, value, to } = event.args;
  const moved = await tokensTransferred(context, event, [{ id, value }], to);
  if (moved) await recordEvent(context, event, "TransferSingle", moved[0] ?? null);
}

/** TransferBatch of a registry: each id's holder moves; the log joins ensv2_event, in each moved name's history. */
export async function batchTransferred(context: IndexingContext, event: IndexedEvent<BatchArgs>): Promise<void> {
  const { ids, values, to } = event.args;
  if (ids.length !== values.length) {
    throw new Error(
      `ensv2: TransferBatch in tx ${event.transaction.hash} has ${ids.length} ids but ${values.length} values`,
    );
  }
  const moved = await tokensTransferred(
    context,
    event,
    ids.map((id, i) => ({ id, value: values[i]! })),
    to,
  );
  if (moved) await recordEvent(context, event, "TransferBatch", moved);
}

/**
 * Whether a transfer Ponder delivered is one to apply now. The root's always (its own contract); a named registry's
 * once it has been named: Ponder delivers the whole block it was named in, and the transfers of that block that come
 * before the naming log are among those applied when it was named. The root's, should a SubregistryUpdated name it,
 * come through its own contract only.
 */
export async function isDelivered(
  context: IndexingContext,
  event: IndexedEvent<unknown>,
  through: "root" | "named",
): Promise<boolean> {
  const registry = emitter(event);
  if (registry === ensv2Anchors().rootRegistry) return through === "root";
  return (await context.db.find(schema.ensv2NamedSubregistry, { id: registryId(context.chain.id, registry) })) !== null;
}

/** The handler context a fetch needs: Ponder's client of the event's chain. */
export type FetchingContext = IndexingContext & {
  client: Pick<Context["client"], "request" | "getBlock" | "getTransaction">;
};

/**
 * SubregistryUpdated names `subregistry`: the first time, it is recorded (Ponder delivers its transfers from this
 * block on) and its transfers from before this log are fetched and applied in their order.
 */
export async function subregistryNamed(
  context: FetchingContext,
  event: IndexedEvent<{ subregistry: Address }>,
): Promise<void> {
  const address = event.args.subregistry.toLowerCase() as Address;
  if (address === zeroAddress || address === ensv2Anchors().rootRegistry) return;
  const id = registryId(context.chain.id, address);
  if (await context.db.find(schema.ensv2NamedSubregistry, { id })) return;
  await context.db
    .insert(schema.ensv2NamedSubregistry)
    .values({ id, chainId: context.chain.id, address, namedAt: event.block.number });
  // Transfers count only for a registry with a row (tokensTransferred), and a row, once made, stays: without one now,
  // none of its earlier transfers counted then either. With one, none came before the block that made it.
  const registry = await findRegistry(context, address);
  if (!registry) return;
  const before = (log: FetchedLog) =>
    log.blockNumber < event.block.number ||
    (log.blockNumber === event.block.number && log.logIndex < event.log.logIndex);
  const logs = (await fetchTransfers(context, address, registry.createdAt, event.block.number)).filter(before);
  for (const fetched of await withBlockFacts(context, logs)) {
    await recordFetchedLog(context, fetched, "ensv2/LinkedRegistry (fetched)");
    const decoded = decodeEventLog({
      abi: Ensv2RegistryTransfersAbi,
      topics: fetched.log.topics as [Hex, ...Hex[]],
      data: fetched.log.data,
    });
    if (decoded.eventName === "TransferSingle") await singleTransferred(context, { ...fetched, args: decoded.args });
    else await batchTransferred(context, { ...fetched, args: decoded.args });
  }
}

interface FetchedLog {
  address: Address;
  blockNumber: bigint;
  blockHash: Hex;
  logIndex: number;
  transactionHash: Hex;
  transactionIndex: number;
  topics: Hex[];
  data: Hex;
}

/** A fetched log as the handlers read an event, without its arguments. */
type FetchedEvent = LogEvent & { transaction: NonNullable<LogEvent["transaction"]> };

const TRANSFER_TOPICS = Ensv2RegistryTransfersAbi.map((e) => toEventSelector(e));

/**
 * Blocks per eth_getLogs where `ETH_GETLOGS_BLOCK_RANGE_<chainId>` sets none: a range public providers take for one
 * address. A registry used before its link is usually linked soon after, so one window is the rule.
 */
const DEFAULT_WINDOW = 10_000n;

/**
 * The registry's transfer logs in [from, to], in chain order, by eth_getLogs through Ponder's client (which passes
 * eth_getLogs to the RPC uncached).
 */
async function fetchTransfers(context: FetchingContext, address: Address, from: bigint, to: bigint) {
  const configured = getConfig().getLogsBlockRanges.get(context.chain.id);
  const range = configured !== undefined ? BigInt(configured) : DEFAULT_WINDOW;
  const out: FetchedLog[] = [];
  for (let start = from; start <= to; start += range) {
    const end = start + range - 1n < to ? start + range - 1n : to;
    const logs = await context.client.request({
      method: "eth_getLogs",
      params: [{ address, topics: [TRANSFER_TOPICS], fromBlock: numberToHex(start), toBlock: numberToHex(end) }],
    });
    for (const l of logs) {
      // Mined blocks below the link only: a pending or removed log means the provider is on another fork.
      if (l.blockNumber === null || l.logIndex === null || l.transactionHash === null || l.blockHash === null)
        throw new Error(`ensv2: eth_getLogs of ${address} up to block ${to} gave a pending log`);
      if (l.transactionIndex === null || l.removed)
        throw new Error(`ensv2: eth_getLogs of ${address} up to block ${to} gave a removed log`);
      out.push({
        address: l.address.toLowerCase() as Address,
        blockNumber: BigInt(l.blockNumber),
        blockHash: l.blockHash,
        logIndex: Number(l.logIndex),
        transactionHash: l.transactionHash,
        transactionIndex: Number(l.transactionIndex),
        topics: l.topics as Hex[],
        data: l.data,
      });
    }
  }
  return out.sort((a, b) =>
    a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
  );
}

/**
 * Each log as a handler's event would show it: its block's timestamp and its transaction's sender and recipient
 * (eth_getBlockByNumber and eth_getTransactionByHash, which Ponder's client caches).
 */
async function withBlockFacts(context: FetchingContext, logs: FetchedLog[]): Promise<FetchedEvent[]> {
  const timestamps = new Map<bigint, bigint>();
  const out: FetchedEvent[] = [];
  for (const l of logs) {
    let timestamp = timestamps.get(l.blockNumber);
    if (timestamp === undefined) {
      timestamp = (await context.client.getBlock({ blockNumber: l.blockNumber })).timestamp;
      timestamps.set(l.blockNumber, timestamp);
    }
    const tx = await context.client.getTransaction({ hash: l.transactionHash });
    out.push({
      log: { address: l.address, logIndex: l.logIndex, topics: l.topics, data: l.data },
      block: { number: l.blockNumber, hash: l.blockHash, timestamp },
      transaction: { hash: l.transactionHash, transactionIndex: l.transactionIndex, from: tx.from, to: tx.to },
    });
  }
  return out;
}
