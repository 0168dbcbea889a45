import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { readCheckpoints } from "./checkpoints";
import { sealSnapshot } from "./container";
import { digestTables } from "./digest";
import { SnapshotError } from "./errors";
import type { SnapshotManifest } from "./manifest";
import { checkPostDataCovered, dumpPostDataPlain, readPostData } from "./post-data";
import { quoteIdent } from "./queryable";
import type { RpcPool } from "./rpc";
import { PER_BLOCK_SYNC_TABLES, writeKeptRows } from "./sync-history";
import { runTool } from "./tools";

/**
 * The PostgreSQL payload's parts, in the order restore loads them: pg_dump's pre-data and data (custom format, read by
 * pg_restore from stdin), the sync store's kept per-block rows (sync-history.ts), the post-data statements (post-data.ts).
 */
export const POSTGRES_PAYLOAD = {
  dump: "index.dump",
  syncRows: "sync-rows.jsonl.gz",
  postData: "post-data.json",
} as const;

/** pg_dump's sections in the dump part: everything but the keys, indexes and triggers, which restore builds itself. */
export const DUMP_SECTIONS = ["--section=pre-data", "--section=data"];

/** pg_dump's arguments that leave out the per-block sync tables' rows (the payload carries the kept ones beside). */
export const WITHOUT_SYNC_HISTORY = Object.keys(PER_BLOCK_SYNC_TABLES).map(
  (table) => `--exclude-table-data=ponder_sync.${table}`,
);

/**
 * Snapshots a PostgreSQL index without pausing it: one REPEATABLE READ transaction exports its snapshot, pg_dump dumps
 * the index schema and `ponder_sync` (without its per-block history and its post-data) in that snapshot, and the
 * post-data statements, the kept sync rows, the manifest's digests and checkpoints are read in the same transaction, so
 * the manifest describes exactly what the payload holds.
 */
export async function createPostgresSnapshot(options: {
  connectionString: string;
  schema: string;
  file: string;
  rpc: RpcPool | undefined;
  chunkRows: number;
}): Promise<SnapshotManifest> {
  const { connectionString, schema, file, chunkRows } = options;
  const work = mkdtempSync(join(tmpdir(), "nameindex-snapshot-"));
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query("begin isolation level repeatable read read only");
    const found = await client.query<{ build: string | null; sync: string | null }>(
      "select to_regclass($1) as build, to_regclass('ponder_sync.intervals') as sync",
      [`${quoteIdent(schema)}."_nameindex_build"`],
    );
    if (!found.rows[0]?.build) {
      throw new SnapshotError(
        "bad-manifest",
        `schema "${schema}" holds no nameindex index (no _nameindex_build table)`,
      );
    }
    if (!found.rows[0]?.sync) throw new SnapshotError("bad-manifest", "the database has no ponder_sync schema");
    const snapshotId = (await client.query<{ id: string }>("select pg_export_snapshot() as id")).rows[0]!.id;
    const dumpFile = join(work, POSTGRES_PAYLOAD.dump);
    const schemas = [quoteIdent(schema), "ponder_sync"];
    const dump = runTool("pg_dump", [
      `--snapshot=${snapshotId}`,
      ...DUMP_SECTIONS,
      "--format=custom",
      "--compress=6",
      "--no-owner",
      "--no-privileges",
      ...schemas.map((s) => `--schema=${s}`),
      ...WITHOUT_SYNC_HISTORY,
      `--file=${dumpFile}`,
      `--dbname=${connectionString}`,
    ]);
    const buildRecord = (
      await client.query<{ record: Record<string, unknown> }>(
        `select record from ${quoteIdent(schema)}."_nameindex_build" where key = 'build'`,
      )
    ).rows[0]?.record;
    if (!buildRecord) throw new SnapshotError("bad-manifest", `schema "${schema}" has no build record`);
    const postDataPlain = join(work, "post-data.sql");
    const postDataDump = dumpPostDataPlain(connectionString, snapshotId, schemas, postDataPlain);
    const postData = await readPostData(client, schema);
    const checkpoints = await readCheckpoints(client, schema, options.rpc);
    await writeKeptRows(client, checkpoints, join(work, POSTGRES_PAYLOAD.syncRows));
    const tables = await digestTables(client, schema, checkpoints, chunkRows);
    await Promise.all([dump, postDataDump]);
    await client.query("commit");
    checkPostDataCovered(postDataPlain, postData);
    writeFileSync(join(work, POSTGRES_PAYLOAD.postData), JSON.stringify(postData));
    return await sealSnapshot(
      file,
      { database: "postgres", schema, buildRecord, checkpoints, chunkRows, tables },
      "pg_dump-parts",
      Object.values(POSTGRES_PAYLOAD).map((name) => ({ name, file: join(work, name) })),
    );
  } finally {
    await client.end().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  }
}
