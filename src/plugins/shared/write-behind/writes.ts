import type { PgTable } from "drizzle-orm/pg-core";
import type { PonderBatchTransaction } from "../../../runtime/ponder-hooks";
import { copyRows, ROWS_PER_PIECE } from "./copy";
import { arrayLiteral, type Row, shapeOf, sqlName, valueText } from "./rows";
import { KEYS_PER_STATEMENT, whereKeys } from "./select";

/*
 * One live table's changes of a batch, in the batch's transaction: deleted rows by DELETE (5,000 keys a statement), new rows by COPY,
 * changed rows by one `UPDATE … FROM unnest(…)`. A key is new to the database, or stored and changed, or stored and
 * deleted; or written unread (./live-rows.ts `writeUnread`), and then deleted first and, if it has a row, copied in
 * after: the DELETE goes before the COPY.
 */

export interface TableChanges {
  inserts: Row[];
  updates: Row[];
  /** The deleted rows' keys, and the keys written unread. */
  deletes: Row[];
}

export async function writeTable(tx: PonderBatchTransaction, table: PgTable, changes: TableChanges): Promise<void> {
  // In statements of KEYS_PER_STATEMENT keys: every upsert written unread is a delete too, so a batch may hold many.
  for (let i = 0; i < changes.deletes.length; i += KEYS_PER_STATEMENT) {
    const keys = changes.deletes.slice(i, i + KEYS_PER_STATEMENT);
    await tx.wrap!((db) => db.delete(table).where(whereKeys(table, keys)));
  }
  await copyRows(tx, table, changes.inserts);
  if (changes.updates.length > 0 && shapeOf(table).columns.length > shapeOf(table).key.length)
    await updateRows(tx, table, changes.updates);
}

/**
 * The changed rows, one statement per piece of ROWS_PER_PIECE: each column's values as a text array, cast to the
 * column's type (the text input COPY uses too), joined to the table on the key. No temporary table: creating and
 * dropping one per table and batch cost a catalog write and two more round trips each time.
 */
export async function updateRows(tx: PonderBatchTransaction, table: PgTable, rows: Row[]): Promise<void> {
  const { target, columns, key } = shapeOf(table);
  const types = await columnTypes(tx, table);
  const names = columns.map(([js, c]) => `"${sqlName(js, c)}"`);
  const keyNames = new Set(key.map(([js, c]) => `"${sqlName(js, c)}"`));
  const cast = (name: string) => `s.${name}::${types.get(name)}`;
  const set = names.filter((n) => !keyNames.has(n)).map((n) => `${n} = ${cast(n)}`);
  const on = [...keyNames].map((n) => `t.${n} = ${cast(n)}`);
  const text = `UPDATE ${target} AS t SET ${set.join(", ")}
       FROM unnest(${names.map((_, i) => `$${i + 1}::text[]`).join(", ")}) AS s(${names.join(", ")})
      WHERE ${on.join(" AND ")}`;
  // As the COPY's pieces: the arrays of a whole batch's table are never held at once.
  for (let i = 0; i < rows.length; i += ROWS_PER_PIECE) {
    const piece = rows.slice(i, i + ROWS_PER_PIECE);
    await tx.$client.query(
      text,
      columns.map(([js, c]) => arrayLiteral(piece.map((row) => valueText(c, row[js])))),
    );
  }
}

/** Each column's type as the database names it (`format_type`), by its quoted name: read once per table. */
const typesOf = new Map<string, Map<string, string>>();

async function columnTypes(tx: PonderBatchTransaction, table: PgTable): Promise<Map<string, string>> {
  const { target } = shapeOf(table);
  let types = typesOf.get(target);
  if (types === undefined) {
    const result = (await tx.$client.query(
      `SELECT attname AS name, format_type(atttypid, atttypmod) AS type FROM pg_attribute
        WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped`,
      [target],
    )) as { rows: { name: string; type: string }[] };
    types = new Map(result.rows.map((r) => [`"${r.name}"`, r.type]));
    typesOf.set(target, types);
  }
  return types;
}
