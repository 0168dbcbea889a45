import type { Context, Event, EventNames } from "ponder:registry";
import { indexedLog } from "ponder:schema";
import type { Address, Hex } from "viem";
import { joinWords } from "../../lib/hex-bytes-column";

/*
 * Keeps every handled log in `indexed_log`, so the Omnigraph answers an event's topics, data, sender and timestamp
 * from the index. Ponder hands the handlers of one log (one per plugin indexing its contract) the same `log` object,
 * one after another; the first writes the row and the others skip it. Remembering that object, rather than asking the
 * store (`onConflictDoNothing`: a cache lookup, a database read once the table outgrows the cache), keeps the write
 * a plain insert. The writer's handler name is kept too: when Ponder re-runs a failed batch with the same objects,
 * the writer's handler comes again and writes again, while the other plugins' handlers still skip.
 */

interface LastWrite {
  log: object;
  handler: string;
}

let lastWrite: LastWrite | undefined;

/** Whether this handler is the one that writes the log's row (the first of the log's handlers to run). */
function writesLog(log: object, handler: string): boolean {
  if (lastWrite === undefined) lastWrite = { log, handler };
  else if (lastWrite.log === log && lastWrite.handler !== handler) return false;
  else {
    lastWrite.log = log;
    lastWrite.handler = handler;
  }
  return true;
}

export interface LogEvent {
  log: { address: Address; logIndex: number; topics: readonly (Hex | null)[]; data: Hex };
  block: { number: bigint; hash: Hex; timestamp: bigint };
  transaction?: { hash: Hex; transactionIndex: number; from: Address; to: Address | null };
}

/**
 * Writes the log of `event` unless another plugin's handler of the same log already did: the store's insert, which
 * runs when awaited (as Ponder's does), or undefined when there is nothing to write (half of all handler runs: the
 * caller awaits nothing then).
 */
export function recordLog<N extends EventNames>(
  handler: N,
  context: Context<N>,
  event: Event<N>,
): PromiseLike<unknown> | undefined {
  const e = event as unknown as LogEvent;
  if (!e.log || !writesLog(e.log, handler)) return undefined;
  return context.db.insert(indexedLog).values(logRow(handler, context.chain.id, e));
}

/**
 * Writes the log of an event a handler fetched itself rather than received (an ENSv2 registry's transfers from
 * before it was linked); a no-op where the log's row exists (Ponder delivered it too, to a handler that skipped it).
 */
export async function recordFetchedLog(
  context: { db: Context["db"]; chain: { id: number } },
  event: LogEvent,
  what: string,
): Promise<void> {
  await context.db
    .insert(indexedLog)
    .values(logRow(what, context.chain.id, event))
    .onConflictDoNothing();
}

function logRow(what: string, chainId: number, e: LogEvent): typeof indexedLog.$inferInsert {
  const tx = e.transaction;
  if (!tx) throw new Error(`${what}: Ponder gave no transaction for log ${e.log.logIndex} of block ${e.block.number}`);
  return {
    chainId,
    blockNumber: e.block.number,
    logIndex: e.log.logIndex,
    blockHash: e.block.hash,
    blockTimestamp: e.block.timestamp,
    transactionHash: tx.hash,
    transactionIndex: tx.transactionIndex,
    transactionFrom: tx.from,
    transactionTo: tx.to,
    address: e.log.address,
    // Ponder keeps four topic slots, null where the log has fewer topics.
    topics: joinWords(e.log.topics.filter((t): t is Hex => t !== null)),
    data: e.log.data,
  };
}
