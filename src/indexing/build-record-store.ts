import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import type { AppConfig } from "../config";
import {
  BUILD_RECORD_SETTINGS,
  type BuildRecord,
  describeChanges,
  describeVersions,
  otherPonder,
} from "./build-record";

/**
 * The record's table in the index's schema. Not a row of `_ponder_meta`: Ponder updates every row of that table at
 * crash recovery, unlock and heartbeat. A leading underscore keeps it out of the table dumps and statistics, as
 * Ponder's own tables.
 */
const BUILD_TABLE = "_nameindex_build";
/** PGlite's record lives in its data directory, one entry per schema, so that deleting the directory forgets it. */
const PGLITE_RECORD_FILE = "nameindex-build.json";

export class BuildRecordMismatchError extends Error {
  override name = "BuildRecordMismatchError";
}

/**
 * Refuses to resume an index written under other output-changing settings, naming them. `ponder start` records the
 * settings of a new index; `ponder serve` only compares (a replica reading rows of other settings would interpret
 * them wrongly). Ponder refuses such a schema too, since the record is part of its build id, but only as "a different
 * Ponder app".
 */
export async function guardBuildRecord(
  config: AppConfig,
  record: BuildRecord,
  command: "start" | "serve" | string,
): Promise<void> {
  const writes = command === "start";
  const stored =
    config.database.kind === "postgres"
      ? await postgresRecord(config.database.connectionString, config.databaseSchema, record, writes)
      : pgliteRecord(config.database.directory, config.databaseSchema, record, writes);
  if (stored === "unrecorded") {
    throw new BuildRecordMismatchError(
      `Schema "${config.databaseSchema}" holds an index written without a nameindex build record (an older nameindex, or another Ponder app). ` +
        `It cannot be resumed with this version: ${remedy(config)}.`,
    );
  }
  if (stored === undefined) return;
  const changes = describeChanges(stored, record);
  const ponderBefore = otherPonder(stored, record);
  if (changes.length === 0 && ponderBefore === undefined) return;
  const codeChanged = `${BUILD_RECORD_SETTINGS.code} changed`;
  if (changes.includes(codeChanged) || ponderBefore !== undefined) {
    // Another release (or an edit of the indexing code): the versions say which wrote the index and which refuses it.
    const others = changes.filter((change) => change !== codeChanged);
    const differs = [
      changes.includes(codeChanged) && "other indexing code",
      ponderBefore !== undefined && `another Ponder (the index's ${ponderBefore}, this ${record.versions.ponder})`,
    ].filter(Boolean);
    throw new BuildRecordMismatchError(
      `Schema "${config.databaseSchema}" holds an index written by ${describeVersions(stored.versions)}, and this is ` +
        `${describeVersions(record.versions)} with ${differs.join(" and ")}: resuming it would mix rows written by both. ` +
        (others.length > 0 ? `Other settings that change indexed rows differ too: ${others.join("; ")}. ` : "") +
        `The schema is left as it was. To upgrade, index anew beside it: ${upgradeRemedy(config)} ` +
        `(docs/operations.md, "Upgrading nameindex").`,
    );
  }
  throw new BuildRecordMismatchError(
    `Schema "${config.databaseSchema}" holds an index built with other settings that change indexed rows: ${changes.join("; ")}. ` +
      `Resuming it would mix rows of both. Restore the previous settings, or index anew: ${remedy(config)}.`,
  );
}

function remedy(config: AppConfig): string {
  return config.database.kind === "postgres"
    ? `set DATABASE_SCHEMA to a new schema, or drop schema "${config.databaseSchema}"`
    : `set DATABASE_SCHEMA to a new schema or PGLITE_DIRECTORY to a new directory, or delete ${config.database.directory}`;
}

/** The upgrade recipe in one sentence: a new schema in the same database, whose RPC cache the old index filled. */
function upgradeRemedy(config: AppConfig): string {
  const schema = config.databaseSchema;
  return config.database.kind === "postgres"
    ? `start this release with a new DATABASE_SCHEMA and the same DATABASE_URL (it reads the RPC cache, ponder_sync, ` +
        `that the old index filled) while the old release keeps serving schema "${schema}"; once the new schema is ` +
        `ready, point the API at it and drop schema "${schema}"`
    : `start this release with a new DATABASE_SCHEMA and the same PGLITE_DIRECTORY (it reads the RPC cache the old ` +
        `index filled there); schema "${schema}" stays as it was, for the old release to serve again if you go back`;
}

type Stored = Partial<BuildRecord> | "unrecorded" | undefined;

async function postgresRecord(
  connectionString: string,
  schema: string,
  record: BuildRecord,
  writes: boolean,
): Promise<Stored> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  const table = `"${schema}"."${BUILD_TABLE}"`;
  try {
    const found = await client.query<{ own: string | null; meta: string | null }>(
      "SELECT to_regclass($1) AS own, to_regclass($2) AS meta",
      [table, `"${schema}"."_ponder_meta"`],
    );
    const own = found.rows[0]?.own
      ? (await client.query<{ record: Partial<BuildRecord> }>(`SELECT "record" FROM ${table} WHERE "key" = 'build'`))
          .rows[0]?.record
      : undefined;
    if (own) return own;
    const hasApp =
      found.rows[0]?.meta !== null &&
      (await client.query(`SELECT 1 FROM "${schema}"."_ponder_meta" WHERE "key" = 'app'`)).rowCount! > 0;
    if (hasApp) return "unrecorded";
    if (!writes) return undefined;
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${table} ("key" TEXT PRIMARY KEY, "record" JSONB NOT NULL)`);
    await client.query(`INSERT INTO ${table} ("key", "record") VALUES ('build', $1) ON CONFLICT ("key") DO NOTHING`, [
      JSON.stringify(record),
    ]);
    // Another `ponder start` may have recorded its own settings first: compare with whatever won.
    return (await client.query<{ record: Partial<BuildRecord> }>(`SELECT "record" FROM ${table} WHERE "key" = 'build'`))
      .rows[0]?.record;
  } finally {
    await client.end();
  }
}

function pgliteRecord(directory: string, schema: string, record: BuildRecord, writes: boolean): Stored {
  const file = join(directory, PGLITE_RECORD_FILE);
  const schemas = existsSync(file)
    ? (JSON.parse(readFileSync(file, "utf8")) as { schemas: Record<string, Partial<BuildRecord>> }).schemas
    : {};
  if (schemas[schema]) return schemas[schema];
  if (writes && existsSync(directory)) {
    writeFileSync(`${file}.tmp`, JSON.stringify({ schemas: { ...schemas, [schema]: record } }, null, 2));
    renameSync(`${file}.tmp`, file);
  }
  return undefined;
}
