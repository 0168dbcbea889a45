import type { Context } from "ponder:registry";
import * as schema from "ponder:schema";
import { getTableColumns } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { type BlockPosition, MAX_WRITES_PER_EVENT, versionOf } from "../../lib/history-version";

/*
 * Keeps the history of the subgraph's mutable entities (ponder.schema.ts, "History of the subgraph's mutable
 * entities"): the store a handler gets writes, beside each insert, update or delete of a tracked table, the row as it
 * now stands into `<table>_history`, under the write's version (src/lib/history-version.ts). Handlers stay as they
 * are; one wrapper around `context.db` (register.ts) sees every write, whichever plugin makes it.
 *
 * A write that changes nothing (an insert that met its row under `onConflictDoNothing`, a delete of no row) leaves no
 * version.
 */

type Db = Context["db"];
type Row = Record<string, unknown>;

const TRACKED = new Map<PgTable, PgTable>([
  [schema.domain, schema.domainHistory],
  [schema.account, schema.accountHistory],
  [schema.resolver, schema.resolverHistory],
  [schema.registration, schema.registrationHistory],
  [schema.wrappedDomain, schema.wrappedDomainHistory],
] as [PgTable, PgTable][]);

/** The main table's columns that its history keeps (the subgraph's; the Omnigraph's order keys are not history). */
const KEPT = new Map<PgTable, string[]>(
  [...TRACKED].map(([table, history]) => {
    const kept = new Set(Object.keys(getTableColumns(history)));
    return [table, Object.keys(getTableColumns(table)).filter((key) => kept.has(key))];
  }),
);

/** Where the writes of one handler run fall in the version order, and how many it has made. */
export interface WritePosition {
  block: BlockPosition;
  logIndex: number;
  /** The next write's number within the log (shared by every handler of the log). */
  next(): number;
}

/**
 * Ponder hands the handlers of one log (one per plugin indexing its contract) the same `log` object, one after
 * another: their writes number on from each other, so two handlers' versions never share a key. The log's first
 * handler coming again is Ponder re-running a failed batch: it numbers from 0 again, as the first time.
 */
interface LogWrites {
  log: object;
  firstHandler: string;
  count: number;
}
let current: LogWrites | undefined;

export function logWritePosition(
  handler: string,
  chainId: number,
  event: { log: object & { logIndex: number }; block: { number: bigint; timestamp: bigint } },
): WritePosition {
  if (!current || current.log !== event.log || current.firstHandler === handler) {
    current = { log: event.log, firstHandler: handler, count: 0 };
  }
  const writes = current;
  return {
    block: { timestamp: event.block.timestamp, chainId, blockNumber: event.block.number },
    logIndex: event.log.logIndex,
    next: () => writes.count++,
  };
}

/** Setup handlers write before any block: version 0 onward, numbered across every setup handler of the process. */
let setupWrites = 0;
export function setupWritePosition(chainId: number): WritePosition {
  return {
    block: { timestamp: 0n, chainId, blockNumber: 0n },
    logIndex: 0,
    next: () => setupWrites++,
  };
}

function versionRow(table: PgTable, position: WritePosition, row: Row, deleted: boolean): Row {
  const write = position.next();
  if (write >= MAX_WRITES_PER_EVENT) {
    throw new Error(
      `entity history: more than ${MAX_WRITES_PER_EVENT} writes for log ${position.logIndex} of block ${position.block.blockNumber} on chain ${position.block.chainId}`,
    );
  }
  const version: Row = { id: row.id, version: versionOf(position.block, position.logIndex, write), deleted };
  if (!deleted) for (const key of KEPT.get(table)!) version[key] = row[key] ?? null;
  return version;
}

async function keep(db: Db, table: PgTable, position: WritePosition, result: unknown, deleted = false) {
  if (result === null || result === undefined) return;
  const rows = (Array.isArray(result) ? result : [result]) as Row[];
  const history = TRACKED.get(table)!;
  for (const row of rows) {
    // biome-ignore lint/suspicious/noExplicitAny: one writer for five tables; their rows are built from the table's own columns.
    await db.insert(history as any).values(versionRow(table, position, row, deleted) as any);
  }
}

/** Ponder's store as a handler uses it, writing the history of the tracked tables beside each write. */
export function withEntityHistory(db: Db, position: WritePosition): Db {
  const insert = (table: PgTable) => {
    const builder = db.insert(table as never);
    if (!TRACKED.has(table)) return builder;
    return {
      values(values: unknown) {
        const inner = builder.values(values as never) as unknown as PromiseLike<unknown> & {
          onConflictDoNothing(): Promise<unknown>;
          onConflictDoUpdate(set: unknown): Promise<unknown>;
        };
        const kept = async (written: PromiseLike<unknown>) => {
          const result = await written;
          await keep(db, table, position, result);
          return result;
        };
        let plain: Promise<unknown> | undefined;
        const run = () => (plain ??= kept(inner));
        return {
          onConflictDoNothing: () => kept(inner.onConflictDoNothing()),
          onConflictDoUpdate: (set: unknown) => kept(inner.onConflictDoUpdate(set)),
          // biome-ignore lint/suspicious/noThenProperty: the store's insert is a thenable, and so is this one.
          then: (onFulfilled?: (v: unknown) => unknown, onRejected?: (e: unknown) => unknown) =>
            run().then(onFulfilled, onRejected),
          catch: (onRejected?: (e: unknown) => unknown) => run().catch(onRejected),
          finally: (onFinally?: () => void) => run().finally(onFinally),
        };
      },
    };
  };
  const update = (table: PgTable, key: unknown) => {
    const builder = db.update(table as never, key as never);
    if (!TRACKED.has(table)) return builder;
    return {
      set: async (values: unknown) => {
        const row = await builder.set(values as never);
        await keep(db, table, position, row);
        return row;
      },
    };
  };
  const del = async (table: PgTable, key: unknown) => {
    const deleted = await db.delete(table as never, key as never);
    if (deleted && TRACKED.has(table)) await keep(db, table, position, key, true);
    return deleted;
  };
  return { find: db.find, sql: db.sql, insert, update, delete: del } as unknown as Db;
}
