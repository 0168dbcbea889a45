import { createHash } from "node:crypto";
import type { SnapshotManifest } from "./manifest";
import { type Queryable, quoteIdent } from "./queryable";
import { keptRowsCondition } from "./sync-history";

export interface TableDigest {
  rows: number;
  sha256: string;
}

/**
 * Tables a snapshot digests: every table of the index's schema but `_ponder_meta` (its heartbeat changes every few
 * seconds; restore rewrites its lock), and every table of `ponder_sync`: of its per-block tables, the rows the snapshot
 * carries (sync-history.ts).
 */
export async function tablesToDigest(db: Queryable, schemas: string[]): Promise<{ schema: string; table: string }[]> {
  const { rows } = await db.query<{ schema: string; table: string }>(
    `select table_schema as schema, table_name as table from information_schema.tables
      where table_schema = any($1) and table_type = 'BASE TABLE' and not (table_name = '_ponder_meta')
      order by table_schema, table_name`,
    [schemas],
  );
  return rows.map((r) => ({ schema: String(r.schema), table: String(r.table) }));
}

/**
 * sha256 over the rows' PostgreSQL text form (`row::text`), one per line, in primary-key order (each key column as
 * text in the C collation, so the order is the same on every server); a table without a primary key is ordered by
 * the row text itself. Read through a cursor, so memory stays flat; the caller holds the transaction (one snapshot).
 */
export async function digestTable(
  db: Queryable,
  schema: string,
  table: string,
  where: string | null = null,
): Promise<TableDigest> {
  const { rows: keys } = await db.query<{ column: string }>(
    `select a.attname as column from pg_index i
       join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
      where i.indrelid = ($1)::regclass and i.indisprimary
      order by array_position(i.indkey, a.attnum)`,
    [`${quoteIdent(schema)}.${quoteIdent(table)}`],
  );
  const order =
    keys.length > 0
      ? keys.map((k) => `(t.${quoteIdent(String(k.column))})::text collate "C"`).join(", ")
      : `(t::text) collate "C"`;
  const cursor = `snapshot_digest_${Math.floor(Math.random() * 1e9)}`;
  await db.query(
    `declare ${cursor} no scroll cursor for select t::text as r from ${quoteIdent(schema)}.${quoteIdent(table)} t${where ? ` where ${where}` : ""} order by ${order}`,
  );
  const hash = createHash("sha256");
  let rows = 0;
  try {
    for (;;) {
      const { rows: batch } = await db.query<{ r: string }>(`fetch 5000 from ${cursor}`);
      for (const { r } of batch) hash.update(r).update("\n");
      rows += batch.length;
      if (batch.length < 5000) break;
    }
  } finally {
    await db.query(`close ${cursor}`);
  }
  return { rows, sha256: hash.digest("hex") };
}

/** Digests of every table `tablesToDigest` names, keyed `<schema>.<table>`, with the index schema written as `index`. */
export async function digestTables(
  db: Queryable,
  indexSchema: string,
  checkpoints: SnapshotManifest["checkpoints"],
): Promise<Record<string, TableDigest>> {
  const result: Record<string, TableDigest> = {};
  for (const { schema, table } of await tablesToDigest(db, [indexSchema, "ponder_sync"])) {
    const where = schema === "ponder_sync" ? keptRowsCondition(table, checkpoints) : null;
    result[`${schema === indexSchema ? "index" : schema}.${table}`] = await digestTable(db, schema, table, where);
  }
  return result;
}
