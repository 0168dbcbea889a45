import { readCheckpoints } from "./checkpoints";
import { type Chunk, chunkRoot, chunkTable } from "./chunks";
import type { SnapshotManifest } from "./manifest";
import type { Queryable } from "./queryable";
import type { RpcPool } from "./rpc";
import { keptRowsCondition, shedHistory } from "./sync-history";

export interface TableDigest {
  rows: number;
  /** sha256 over the row count, chunk size and chunk list (chunks.ts). */
  root: string;
  chunks: Chunk[];
}

/**
 * Rows per chunk when `create` is not told otherwise. Restore's sample reads whole chunks, so at mainnet size (~550M
 * rows for the default plugins) this sets its cost: ~35 tables × 200 chunks × 2,000 rows, ~3 min on 2 cores
 * (10,000 rows: ~14 min), for a manifest of ~40 MB (~275,000 chunks; 10,000 rows: ~8 MB).
 */
export const DEFAULT_CHUNK_ROWS = 2_000;

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

/** The manifest's name of a table, `<schema>.<table>` with the index schema written as `index`, and its row filter. */
export function digestTarget(
  indexSchema: string,
  schema: string,
  table: string,
  checkpoints: SnapshotManifest["checkpoints"],
): { name: string; where: string | null } {
  return {
    name: `${schema === indexSchema ? "index" : schema}.${table}`,
    where: schema === "ponder_sync" ? keptRowsCondition(table, checkpoints) : null,
  };
}

/**
 * sha256 over a whole table's rows' text in key order, one per line (the table as one chunk): what tests compare two
 * indexes with. The caller holds the transaction.
 */
export async function digestTable(
  db: Queryable,
  schema: string,
  table: string,
  where: string | null = null,
): Promise<{ rows: number; sha256: string }> {
  const { rows, chunks } = await chunkTable(db, schema, table, Number.MAX_SAFE_INTEGER, where);
  return { rows, sha256: chunks[0]!.sha256 };
}

/**
 * Every table `tablesToDigest` names, read whole in key order and cut into chunks (chunks.ts): what `create` writes
 * and `verify --full` recomputes. The caller holds the transaction (one snapshot).
 */
export async function digestTables(
  db: Queryable,
  indexSchema: string,
  checkpoints: SnapshotManifest["checkpoints"],
  chunkRows: number,
): Promise<Record<string, TableDigest>> {
  const result: Record<string, TableDigest> = {};
  for (const { schema, table } of await tablesToDigest(db, [indexSchema, "ponder_sync"])) {
    const { name, where } = digestTarget(indexSchema, schema, table, checkpoints);
    const { rows, chunks } = await chunkTable(db, schema, table, chunkRows, where);
    result[name] = { rows, root: chunkRoot(rows, chunkRows, chunks), chunks };
  }
  return result;
}

/**
 * A stopped copy of an index (PGlite's directory, a cluster's data directory) made into what a snapshot carries: its
 * checkpoints read, the sync history before them shed, its tables digested. Nothing else writes to a copy.
 */
export async function digestCopy(
  db: Queryable,
  schema: string,
  rpc: RpcPool | undefined,
  chunkRows: number,
): Promise<{ checkpoints: SnapshotManifest["checkpoints"]; tables: Record<string, TableDigest> }> {
  const checkpoints = await readCheckpoints(db, schema, rpc);
  await shedHistory(db, checkpoints);
  await db.query("begin isolation level repeatable read read only");
  try {
    return { checkpoints, tables: await digestTables(db, schema, checkpoints, chunkRows) };
  } finally {
    await db.query("commit");
  }
}
