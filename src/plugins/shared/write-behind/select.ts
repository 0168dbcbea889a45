import { and, eq, inArray, or, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { PonderBatchTransaction, PonderPoolQuery } from "../../../runtime/ponder-hooks";
import { type Row, shapeOf } from "./rows";

/*
 * The live tables' reads of the database, through Ponder's query builder (whose drizzle client maps the columns back as
 * a find through Ponder's store would): the batch's transaction, which sees every earlier batch's rows, committed or
 * not; or Ponder's pool, which sees the committed ones, while the previous batch's rows are being written on the
 * transaction's connection (the live store holds every key that batch changed: ./live-rows.ts).
 */

/** Where a read goes: the batch's transaction, or Ponder's pool. */
export type DatabaseReader = PonderBatchTransaction | PonderPoolQuery;

/** Keys per statement: well under PostgreSQL's 65,535 parameters for any key of a few columns. */
export const KEYS_PER_STATEMENT = 5_000;

/** The rows under `keys` (rows of the key's columns); a key without a row is left out. */
export async function readRows(tx: DatabaseReader, table: PgTable, keys: readonly Row[]): Promise<Row[]> {
  const out: Row[] = [];
  for (let i = 0; i < keys.length; i += KEYS_PER_STATEMENT) {
    const where = whereKeys(table, keys.slice(i, i + KEYS_PER_STATEMENT));
    out.push(...((await run(tx, (db) => db.select().from(table).where(where))) as Row[]));
  }
  return out;
}

/** Every row of `table` if it has at most `limit`, else undefined. */
export async function readTableUpTo(
  tx: PonderBatchTransaction,
  table: PgTable,
  limit: number,
): Promise<Row[] | undefined> {
  const rows = (await run(tx, (db) =>
    db
      .select()
      .from(table)
      .limit(limit + 1),
  )) as Row[];
  return rows.length > limit ? undefined : rows;
}

/** `WHERE` the key is one of `keys`: `IN (…)` for a one-column key. */
export function whereKeys(table: PgTable, keys: readonly Row[]): SQL {
  const { key } = shapeOf(table);
  const column = (js: string) => (table as unknown as Record<string, PgColumn>)[js]!;
  if (key.length === 1) {
    const [js] = key[0]!;
    return inArray(
      column(js),
      keys.map((k) => k[js]),
    );
  }
  return or(...keys.map((k) => and(...key.map(([js]) => eq(column(js), k[js])))))!;
}

// biome-ignore lint/suspicious/noExplicitAny: Ponder's drizzle database, by dialect.
function run<T>(tx: DatabaseReader, query: (db: any) => Promise<T> | T): Promise<T> {
  if (tx.wrap === undefined) throw new Error("write-behind: the batch's transaction has no query builder");
  return tx.wrap(query);
}
