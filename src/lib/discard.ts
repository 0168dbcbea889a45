import type { Context } from "ponder:registry";
import type { PgTable } from "drizzle-orm/pg-core";

type Db = Context["db"];
type Row = Record<string, unknown>;

/**
 * A store's `delete` for a caller that does not use its answer (whether there was a row). To give that answer, Ponder's
 * store reads the key, and so does the write-behind store for a table it has evicted; told that nobody asks, the latter
 * deletes the key unread, in the batch's one DELETE (src/plugins/shared/write-behind/live-db.ts). A store that stands
 * between (the entity history's) passes it on.
 */
export const DISCARD = Symbol("nameindex.discard");

export type Discard = (table: PgTable, key: Row) => Promise<void>;

/** Deletes the row under `key` of `table`, if any, without asking whether there was one. */
export async function discardRow(db: Db, table: PgTable, key: Row): Promise<void> {
  const discard = (db as unknown as { [DISCARD]?: Discard })[DISCARD];
  if (discard !== undefined) return discard(table, key);
  await db.delete(table as never, key as never);
}
