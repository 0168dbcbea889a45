import { sql } from "drizzle-orm";
import pg from "pg";
import { validToTriggerSql } from "./valid-to-trigger";

/*
 * Installs the trigger that fills in each entity version's `valid_to` (valid-to-trigger.ts) on the five history
 * tables. `ponder start` awaits it as it executes the API files (src/api/index.ts): Ponder has created (or recovered)
 * the tables by then and starts indexing only once they have run, so every version is written with the trigger in
 * place and none is ever committed pending. Not through the handlers' `db.sql`: a statement there would empty Ponder's
 * row cache and mark every table incomplete for the rest of the process. On PostgreSQL it has its own connection
 * (the API's sessions are read-only), one statement at a time; on PGlite it goes through the API's client.
 */

export interface HistoryTriggerOptions {
  database: { kind: "pglite" } | { kind: "postgres"; connectionString: string };
  /** The API's client (PGlite: the indexer's own instance, behind the read gate). */
  apiDb: { execute(query: ReturnType<typeof sql.raw>): Promise<unknown> };
  schema: string;
  tables: readonly string[];
}

export async function installHistoryTriggers(options: HistoryTriggerOptions): Promise<void> {
  const statements = options.tables.flatMap((table) => validToTriggerSql(options.schema, table));
  if (options.database.kind === "pglite") {
    for (const statement of statements) await options.apiDb.execute(sql.raw(statement));
    return;
  }
  const client = new pg.Client({
    connectionString: options.database.connectionString,
    application_name: `${options.schema}_nameindex_triggers`,
  });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}
