import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import type { AppConfig } from "../config";
import { type BuildRecord, describeChanges } from "./build-record";

/** The `_ponder_meta` key that holds the record (Ponder reads only its own key, "app"). */
const META_KEY = "nameindex_build";
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
export async function guardBuildRecord(config: AppConfig, record: BuildRecord, command: "start" | "serve" | string): Promise<void> {
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
  if (changes.length === 0) return;
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

type Stored = Partial<BuildRecord> | "unrecorded" | undefined;

async function postgresRecord(connectionString: string, schema: string, record: BuildRecord, writes: boolean): Promise<Stored> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  const meta = `"${schema}"."_ponder_meta"`;
  try {
    const exists = await client.query<{ found: string | null }>("SELECT to_regclass($1) AS found", [meta]);
    if (exists.rows[0]?.found === null) {
      if (!writes) return undefined;
      // The same definition Ponder creates, so its own CREATE … IF NOT EXISTS leaves it as it is.
      await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${meta} ("key" TEXT PRIMARY KEY, "value" JSONB NOT NULL)`);
    }
    const rows = await client.query<{ key: string; value: Partial<BuildRecord> }>(
      `SELECT "key", "value" FROM ${meta} WHERE "key" IN ('app', $1)`,
      [META_KEY],
    );
    const own = rows.rows.find((r) => r.key === META_KEY);
    if (own) return own.value;
    if (rows.rows.some((r) => r.key === "app")) return "unrecorded";
    if (writes) {
      await client.query(`INSERT INTO ${meta} ("key", "value") VALUES ($1, $2) ON CONFLICT ("key") DO NOTHING`, [META_KEY, JSON.stringify(record)]);
      // Another `ponder start` may have recorded its own settings first: compare with whatever won.
      const after = await client.query<{ value: Partial<BuildRecord> }>(`SELECT "value" FROM ${meta} WHERE "key" = $1`, [META_KEY]);
      return after.rows[0]?.value;
    }
    return undefined;
  } finally {
    await client.end();
  }
}

function pgliteRecord(directory: string, schema: string, record: BuildRecord, writes: boolean): Stored {
  const file = join(directory, PGLITE_RECORD_FILE);
  const schemas = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { schemas: Record<string, Partial<BuildRecord>> }).schemas : {};
  if (schemas[schema]) return schemas[schema];
  if (writes && existsSync(directory)) {
    writeFileSync(`${file}.tmp`, JSON.stringify({ schemas: { ...schemas, [schema]: record } }, null, 2));
    renameSync(`${file}.tmp`, file);
  }
  return undefined;
}
