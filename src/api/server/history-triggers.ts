import { sql } from "drizzle-orm";
import pg from "pg";
import { validToTriggerSql } from "../../lib/history-valid-to";

/*
 * Installs the trigger that fills in each entity version's `valid_to` (src/lib/history-valid-to.ts) on the five
 * history tables, and fills in the versions written while it was missing. `ponder start` runs it as it executes the
 * API files: Ponder has created (or recovered) the tables by then and has not started indexing. It runs beside
 * indexing, never inside a batch's transaction: a statement through the handlers' `db.sql` would empty Ponder's row
 * cache and mark every table incomplete for the rest of the process (each later lookup of a row not in memory a
 * database read). On PostgreSQL it has its own connection (the API's sessions are read-only), one statement at a
 * time, so it holds one table's lock at most and can never deadlock with a batch; on PGlite it goes through the API's
 * client, whose statements wait until no indexing transaction is open.
 *
 * Until it is in place, versions keep `valid_to` pending, which the readers answer correctly, only more slowly.
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
