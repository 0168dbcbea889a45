import type { Readable } from "node:stream";
import pg from "pg";
import { POSTGRES_PAYLOAD } from "./create-postgres";
import { SnapshotError } from "./errors";
import { loadPayload } from "./payload";
import { type PostDataStatement, postDataSchema, runPostData } from "./post-data";
import { quoteIdent } from "./queryable";
import { renameSchema, unlockIndex } from "./rename-schema";
import { loadKeptRows } from "./sync-history";
import { runTool } from "./tools";
import { checkTableList, type RestoreInput, type VerifyReport, verifyRestored } from "./verify";

/** Connections that build the keys and indexes at once: this machine's two cores (post-data.ts). */
const POST_DATA_JOBS = 2;

/**
 * Restores a PostgreSQL snapshot into `schema` of an empty target (no such schema with tables, no `ponder_sync`) as its
 * payload arrives: pg_dump's part streams into pg_restore, the kept sync rows into their tables; once the payload's
 * sha256 has been checked, the keys and indexes are built on two connections; then the snapshot's schema is renamed to
 * `schema`, verified, and unlocked for `ponder start`. Any failure, the checksum's included, drops what it restored.
 */
export async function restorePostgresSnapshot(
  options: RestoreInput & { connectionString: string },
): Promise<VerifyReport> {
  const { connectionString, schema, manifest, log } = options;
  if (manifest.payload.kind !== "pg_dump-parts") {
    throw new SnapshotError(
      "payload",
      "this snapshot is of a PGlite index: restore it without DATABASE_URL (PGLITE_DIRECTORY)",
    );
  }
  const client = new pg.Client({ connectionString });
  await client.connect();
  let restored = false;
  try {
    await refuseNonEmpty(client, schema, manifest.schema);
    restored = true;
    let postDataBytes: Buffer = Buffer.alloc(0);
    const started = Date.now();
    await loadPayload(options.payload, manifest, options.label, {
      [POSTGRES_PAYLOAD.dump]: (part) => pgRestore(connectionString, part),
      [POSTGRES_PAYLOAD.syncRows]: async (part) => {
        await loadKeptRows(client, part);
      },
      [POSTGRES_PAYLOAD.postData]: async (part) => {
        postDataBytes = await readAll(part);
      },
    });
    const postData = parsePostData(postDataBytes);
    await checkTableList(client, manifest.schema, manifest);
    const loadSeconds = (Date.now() - started) / 1000;
    log(`restore: rows loaded in ${loadSeconds.toFixed(1)} s`);
    const ours = postData.filter((s) => !s.ponderSchemaIndex);
    const ponders = postData.filter((s) => s.ponderSchemaIndex);
    const postDataSeconds = await runPostData(connectionString, ours, POST_DATA_JOBS);
    log(
      `restore: ${ours.length} keys, indexes and triggers built on ${POST_DATA_JOBS} connections in ${postDataSeconds.toFixed(1)} s`,
    );
    // Built here, once: verify's name sample and the API read through them, and `ponder start` keeps them (patch
    // createDatabase-keep-indexes-at-recovery).
    const ponderIndexSeconds = await runPostData(connectionString, ponders, POST_DATA_JOBS);
    log(`restore: ponder.schema.ts's ${ponders.length} indexes built in ${ponderIndexSeconds.toFixed(1)} s`);
    if (manifest.schema !== schema) await renameSchema(client, manifest.schema, schema);
    const report = await verifyRestored(client, schema, manifest, options.config, options.rpc, options.verify);
    await unlockIndex(client, schema);
    restored = false;
    return { ...report, restore: { loadSeconds, postDataSeconds, ponderIndexSeconds } };
  } finally {
    if (restored) await dropRestored(client, schema, manifest.schema);
    await client.end().catch(() => {});
  }
}

/** pg_dump's part into pg_restore's stdin: one job, which needs no seekable file. */
async function pgRestore(connectionString: string, part: Readable): Promise<void> {
  try {
    await runTool("pg_restore", ["--no-owner", "--no-privileges", "--exit-on-error", `--dbname=${connectionString}`], {
      input: part,
    });
  } catch (error) {
    throw new SnapshotError("payload", `pg_restore refused the payload: ${(error as Error).message}`);
  }
}

async function readAll(part: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of part) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function parsePostData(bytes: Buffer): PostDataStatement[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new SnapshotError("payload", "the post-data part is not JSON");
  }
  const result = postDataSchema.safeParse(parsed);
  if (!result.success) throw new SnapshotError("payload", "the post-data part is not a list of statements");
  return result.data;
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

async function dropRestored(client: pg.Client, schema: string, sourceSchema: string): Promise<void> {
  await client.query("rollback").catch(() => {});
  for (const name of new Set([schema, sourceSchema, "ponder_sync"])) {
    await client.query(`drop schema if exists ${quoteIdent(name)} cascade`).catch(() => {});
  }
}
