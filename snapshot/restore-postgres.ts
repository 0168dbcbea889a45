import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { AppConfig } from "../src/config";
import { extractPayload } from "./container";
import { POSTGRES_PAYLOAD } from "./create-postgres";
import { SnapshotError } from "./errors";
import type { SnapshotManifest } from "./manifest";
import { quoteIdent } from "./queryable";
import type { RpcPool } from "./rpc";
import { loadKeptRows } from "./sync-history";
import { runTool } from "./tools";
import { type VerifyOptions, type VerifyReport, verifyRestored } from "./verify";

/**
 * Restores a pg_dump snapshot into `schema` of an empty target (no such schema with tables, no `ponder_sync`), renames
 * the snapshot's schema to it, verifies, and unlocks the index for `ponder start`. Any failure drops what it restored.
 */
export async function restorePostgresSnapshot(options: {
  file: string;
  payloadOffset: number;
  manifest: SnapshotManifest;
  connectionString: string;
  schema: string;
  config: AppConfig;
  rpc: RpcPool;
  verify: VerifyOptions;
}): Promise<VerifyReport> {
  const { connectionString, schema, manifest } = options;
  if (manifest.payload.kind !== "pg_dump-tar") {
    throw new SnapshotError(
      "payload",
      "this snapshot is of a PGlite index: restore it without DATABASE_URL (PGLITE_DIRECTORY)",
    );
  }
  const client = new pg.Client({ connectionString });
  await client.connect();
  const work = mkdtempSync(join(tmpdir(), "nameindex-restore-"));
  let restored = false;
  try {
    await refuseNonEmpty(client, schema, manifest.schema);
    const payload = join(work, "payload.tar");
    await extractPayload(options.file, options.payloadOffset, payload);
    try {
      await runTool("tar", ["-xf", payload, "-C", work, POSTGRES_PAYLOAD.dump, POSTGRES_PAYLOAD.syncRows]);
    } catch (error) {
      throw new SnapshotError("payload", `the payload does not unpack: ${(error as Error).message}`);
    }
    restored = true;
    try {
      await runTool("pg_restore", [
        "--no-owner",
        "--no-privileges",
        "--exit-on-error",
        `--dbname=${connectionString}`,
        join(work, POSTGRES_PAYLOAD.dump),
      ]);
    } catch (error) {
      throw new SnapshotError("payload", `pg_restore refused the payload: ${(error as Error).message}`);
    }
    await loadKeptRows(client, join(work, POSTGRES_PAYLOAD.syncRows));
    if (manifest.schema !== schema) await renameSchema(client, manifest.schema, schema);
    const report = await verifyRestored(client, schema, manifest, options.config, options.rpc, options.verify);
    // The snapshot of a running indexer holds its lock; this index has no writer yet.
    await client.query(
      `update ${quoteIdent(schema)}."_ponder_meta" set value = jsonb_set(value, '{is_locked}', '0') where key = 'app'`,
    );
    restored = false;
    return report;
  } finally {
    if (restored) await dropRestored(client, schema, manifest.schema);
    await client.end().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  }
}

async function refuseNonEmpty(client: pg.Client, schema: string, sourceSchema: string): Promise<void> {
  const { rows } = await client.query<{ schema: string; tables: string }>(
    `select n.nspname as schema, count(c.oid)::text as tables from pg_namespace n
       left join pg_class c on c.relnamespace = n.oid and c.relkind in ('r', 'p', 'v', 'm')
      where n.nspname = any($1) group by n.nspname`,
    [[schema, "ponder_sync", sourceSchema]],
  );
  for (const row of rows) {
    if (row.schema === schema && row.tables === "0") continue;
    throw new SnapshotError(
      "target-not-empty",
      row.schema === "ponder_sync"
        ? "the target database already has a ponder_sync schema (another index's RPC cache): restore into a new database"
        : `the target database already has a schema "${row.schema}"${row.schema === schema ? ` with ${row.tables} tables` : " (the snapshot's schema name)"}: restore into an empty schema of a new database`,
    );
  }
  // An empty target schema is dropped so pg_restore can create it under the snapshot's name and rename it.
  await client.query(`drop schema if exists ${quoteIdent(schema)}`);
}

/** Renames the restored schema; Ponder's trigger functions name their schema in their bodies, so they are rewritten. */
async function renameSchema(client: pg.Client, from: string, to: string): Promise<void> {
  await client.query(`alter schema ${quoteIdent(from)} rename to ${quoteIdent(to)}`);
  const { rows } = await client.query<{ def: string }>(
    `select pg_get_functiondef(p.oid) as def from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = $1`,
    [to],
  );
  for (const { def } of rows) {
    const rewritten = def.replaceAll(`${quoteIdent(from)}.`, `${quoteIdent(to)}.`);
    if (rewritten !== def) await client.query(rewritten);
  }
}

async function dropRestored(client: pg.Client, schema: string, sourceSchema: string): Promise<void> {
  await client.query("rollback").catch(() => {});
  for (const name of new Set([schema, sourceSchema, "ponder_sync"])) {
    await client.query(`drop schema if exists ${quoteIdent(name)} cascade`).catch(() => {});
  }
}
