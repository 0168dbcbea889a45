import { sql } from "drizzle-orm";
import pg from "pg";
import type { ProbeResult } from "./database-health";

/*
 * The record that a schema's backfill finished, which replicas read to tell "the indexer is restarting" (Ponder's
 * `is_ready` 0 for ~10 s, every row still there) from "the index is not built yet". Ponder keeps no such fact: each
 * start sets `is_ready` to 0 until it has caught up. So `ponder start` writes it, once, when it first reads `is_ready`
 * 1: a row keyed `backfill` in `_nameindex_build`, the table that holds the build record (not `_ponder_meta`, every row
 * of which Ponder overwrites at each start). `ponder serve` only reads it: a replica writes nothing, and a read-only
 * standby would refuse it.
 */

const RECORD_TABLE = "_nameindex_build";
const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

type ReadSql = (query: string) => Promise<Record<string, unknown>[]>;

/** The probe DatabaseHealth runs: Ponder's `is_ready`, and (until known) the record. */
export function schemaStateProbe(readSql: ReadSql, schema: string) {
  const s = quote(schema);
  return async (knownFinished: boolean): Promise<ProbeResult> => {
    const [row] = await readSql(
      `SELECT (SELECT value->>'is_ready' FROM ${s}."_ponder_meta" WHERE key = 'app') AS is_ready,
              to_regclass('${s}.${quote(RECORD_TABLE)}') IS NOT NULL AS has_table`,
    );
    const ponderReady = String(row?.is_ready) === "1";
    if (knownFinished || ponderReady || row?.has_table !== true) return { ponderReady, backfillRecorded: false };
    const recorded = await readSql(`SELECT 1 FROM ${s}.${quote(RECORD_TABLE)} WHERE key = 'backfill'`);
    return { ponderReady, backfillRecorded: recorded.length > 0 };
  };
}

/**
 * The statements that record the finished backfill (idempotent). On PostgreSQL the table exists (the build record's
 * guard made it before Ponder migrated); on PGlite the build record lives in a file, so the table is made here.
 */
export function recordBackfillStatements(schema: string): string[] {
  const table = `${quote(schema)}.${quote(RECORD_TABLE)}`;
  return [
    `CREATE TABLE IF NOT EXISTS ${table} ("key" TEXT PRIMARY KEY, "record" JSONB NOT NULL)`,
    `INSERT INTO ${table} ("key", "record") VALUES ('backfill', jsonb_build_object('finishedAt', now()))
       ON CONFLICT ("key") DO NOTHING`,
  ];
}

export interface RecordOptions {
  database: { kind: "pglite" } | { kind: "postgres"; connectionString: string };
  /** The API's client (PGlite: the indexer's own instance, behind the read gate). */
  apiDb: { execute(query: ReturnType<typeof sql.raw>): Promise<unknown> };
  schema: string;
}

/** Records the finished backfill; on PostgreSQL through a connection of its own (the API's sessions are read-only). */
export async function recordFinishedBackfill(options: RecordOptions): Promise<void> {
  const statements = recordBackfillStatements(options.schema);
  if (options.database.kind === "pglite") {
    for (const statement of statements) await options.apiDb.execute(sql.raw(statement));
    return;
  }
  const client = new pg.Client({
    connectionString: options.database.connectionString,
    application_name: `${options.schema}_nameindex_backfill`,
  });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}
