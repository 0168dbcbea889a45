import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import { SnapshotError } from "./errors";
import type { SnapshotManifest } from "./manifest";
import { type Queryable, quoteIdent } from "./queryable";

/*
 * What of Ponder's sync store (`ponder_sync`) a snapshot carries. On start Ponder reverts each chain to its resume
 * block (the safe checkpoint) and replays the events after it from the sync store; the events before it are never read
 * again, since the index already holds what they wrote. So the per-block tables keep only the rows from each chain's
 * resume block on, and the tables that describe what was synced (`intervals`: Ponder then fetches no block range it
 * covers; `factories`/`factory_addresses`: the child contracts later logs are filtered by) are kept whole. The history
 * itself (on mainnet nearly all of `ponder_sync`) stays with the publisher.
 */

/** `ponder_sync` tables with one row per block, transaction, log or call, and the column holding the block number. */
export const PER_BLOCK_SYNC_TABLES: Readonly<Record<string, string>> = {
  blocks: "number",
  transactions: "block_number",
  transaction_receipts: "block_number",
  logs: "block_number",
  traces: "block_number",
  // eth_call results cached by block; a null block is a result that holds at every block (kept).
  rpc_request_results: "block_number",
};

/**
 * The SQL condition (over the table's `chain_id` and block column) a row of a per-block table must meet to be in the
 * snapshot: its block is at or after its chain's resume block. A chain with no resume block keeps every row.
 */
export function keptRowsCondition(table: string, checkpoints: SnapshotManifest["checkpoints"]): string | null {
  const column = PER_BLOCK_SYNC_TABLES[table];
  if (!column) return null;
  const cases = checkpoints
    .filter((c) => c.resume !== null)
    .map((c) => `when ${Number(c.chainId)} then ${quoteIdent(column)} >= ${Number(c.resume!.number)}`);
  if (cases.length === 0) return "true";
  return `(case chain_id ${cases.join(" ")} else true end or ${quoteIdent(column)} is null)`;
}

/** Deletes the rows a snapshot leaves out (PGlite's create does it on its copy of the directory). */
export async function dropHistory(db: Queryable, checkpoints: SnapshotManifest["checkpoints"]): Promise<number> {
  let dropped = 0;
  for (const table of await presentTables(db)) {
    const kept = keptRowsCondition(table, checkpoints)!;
    const { rows } = await db.query<{ n: string }>(
      `with gone as (delete from ponder_sync.${quoteIdent(table)} where not ${kept} returning 1) select count(*)::text as n from gone`,
    );
    dropped += Number(rows[0]?.n ?? 0);
  }
  return dropped;
}

/**
 * A copy of an index (PGlite's directory, a cluster's data directory) sheds the sync history before its resume
 * blocks; VACUUM FULL gives the space back, so the copy carries only what the snapshot file would.
 */
export async function shedHistory(db: Queryable, checkpoints: SnapshotManifest["checkpoints"]): Promise<void> {
  await dropHistory(db, checkpoints);
  for (const table of Object.keys(PER_BLOCK_SYNC_TABLES)) {
    await db.query(`vacuum full ponder_sync.${quoteIdent(table)}`).catch(() => {});
  }
}

async function presentTables(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ t: string }>(
    "select table_name as t from information_schema.tables where table_schema = 'ponder_sync' and table_name = any($1) order by 1",
    [Object.keys(PER_BLOCK_SYNC_TABLES)],
  );
  return rows.map((r) => String(r.t));
}

/**
 * Writes the kept rows of every per-block table, as `{"table": …, "row": <row text>}` lines, gzipped: the PostgreSQL
 * snapshot's pg_dump carries these tables without data. Read through a cursor in the caller's transaction.
 */
export async function writeKeptRows(
  db: Queryable,
  checkpoints: SnapshotManifest["checkpoints"],
  file: string,
): Promise<number> {
  const gzip = createGzip({ level: 6 });
  const done = pipeline(gzip, createWriteStream(file));
  let written = 0;
  for (const table of await presentTables(db)) {
    const cursor = `snapshot_rows_${table}`;
    await db.query(
      `declare ${cursor} no scroll cursor for select t::text as r from ponder_sync.${quoteIdent(table)} t where ${keptRowsCondition(table, checkpoints)}`,
    );
    try {
      for (;;) {
        const { rows } = await db.query<{ r: string }>(`fetch 5000 from ${cursor}`);
        for (const { r } of rows) {
          if (!gzip.write(`${JSON.stringify({ table, row: r })}\n`)) await once(gzip, "drain");
        }
        written += rows.length;
        if (rows.length < 5000) break;
      }
    } finally {
      await db.query(`close ${cursor}`);
    }
  }
  gzip.end();
  await done;
  return written;
}

/** Loads what `writeKeptRows` wrote (`input`: its gzipped bytes) into a restored `ponder_sync` (its tables exist, empty). */
export async function loadKeptRows(db: Queryable, input: Readable): Promise<number> {
  const gunzip = createGunzip();
  const lines = createInterface({ input: input.pipe(gunzip), crlfDelay: Number.POSITIVE_INFINITY });
  // A damaged part fails in gunzip; the line reader then ends without an error of its own.
  const damaged = new Promise<never>((_, reject) => {
    gunzip.once("error", reject);
    input.once("error", reject);
  });
  damaged.catch(() => {});
  const batches = new Map<string, string[]>();
  let loaded = 0;
  const flush = async (table: string) => {
    const rows = batches.get(table);
    if (!rows?.length) return;
    const target = `ponder_sync.${quoteIdent(table)}`;
    await db.query(`insert into ${target} select (r::${target}).* from unnest($1::text[]) r`, [rows]);
    loaded += rows.length;
    batches.set(table, []);
  };
  try {
    await Promise.race([damaged, read()]);
  } catch (error) {
    if (error instanceof SnapshotError) throw error;
    throw new SnapshotError("payload", `the sync rows do not load: ${(error as Error).message}`);
  }
  return loaded;

  async function read(): Promise<void> {
    for await (const line of lines) {
      if (!line) continue;
      const { table, row } = JSON.parse(line) as { table: string; row: string };
      if (!(table in PER_BLOCK_SYNC_TABLES) || typeof row !== "string") {
        throw new SnapshotError("payload", `the sync rows name an unknown table "${table}"`);
      }
      const batch = batches.get(table) ?? [];
      batch.push(row);
      batches.set(table, batch);
      if (batch.length >= 2000) await flush(table);
    }
    for (const table of batches.keys()) await flush(table);
  }
}
