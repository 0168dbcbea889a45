import { getTableName } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { PonderBatchTransaction } from "../../../runtime/ponder-hooks";
import { copyRows } from "./copy";
import { type Row, shapeOf, sqlName } from "./rows";
import { whereKeys } from "./select";

/*
 * One live table's changes of a batch, in the batch's transaction: new rows by COPY, changed rows by COPY into a
 * temporary table and one `UPDATE … FROM` it, deleted rows by one DELETE. The three sets are disjoint (a key is
 * either new to the database, or stored and changed, or stored and deleted), so their order does not matter.
 */

export interface TableChanges {
  inserts: Row[];
  updates: Row[];
  /** The deleted rows' keys. */
  deletes: Row[];
}

export async function writeTable(tx: PonderBatchTransaction, table: PgTable, changes: TableChanges): Promise<void> {
  await copyRows(tx, table, changes.inserts);
  if (changes.updates.length > 0 && shapeOf(table).columns.length > shapeOf(table).key.length)
    await updateRows(tx, table, changes.updates);
  if (changes.deletes.length > 0) await tx.wrap!((db) => db.delete(table).where(whereKeys(table, changes.deletes)));
}

async function updateRows(tx: PonderBatchTransaction, table: PgTable, rows: Row[]): Promise<void> {
  const { target, columns, key } = shapeOf(table);
  // Dropped at the commit: the name is free for the next batch, whichever pooled connection it runs on.
  const temp = `"nameindex_wb_${getTableName(table)}"`;
  await execute(tx, `CREATE TEMP TABLE ${temp} ON COMMIT DROP AS SELECT * FROM ${target} WITH NO DATA`);
  await copyRows(tx, table, rows, temp);
  const keyNames = new Set(key.map(([js]) => js));
  const set = columns
    .filter(([js]) => !keyNames.has(js))
    .map(([js, c]) => `"${sqlName(js, c)}" = s."${sqlName(js, c)}"`)
    .join(", ");
  const on = key.map(([js, c]) => `t."${sqlName(js, c)}" = s."${sqlName(js, c)}"`).join(" AND ");
  await execute(tx, `UPDATE ${target} AS t SET ${set} FROM ${temp} AS s WHERE ${on}`);
}

function execute(tx: PonderBatchTransaction, text: string): Promise<unknown> {
  return tx.$client.query(text);
}
