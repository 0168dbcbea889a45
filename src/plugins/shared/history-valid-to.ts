import type { Context } from "ponder:registry";
import * as schema from "ponder:schema";
import { sql } from "drizzle-orm";
import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import { validToTriggerSql } from "../../lib/history-valid-to";

/** The tables whose versions get their `valid_to` from the database (src/lib/history-valid-to.ts). */
const HISTORY_TABLES = [
  schema.domainHistory,
  schema.accountHistory,
  schema.resolverHistory,
  schema.registrationHistory,
  schema.wrappedDomainHistory,
] as PgTable[];

let installed = false;

/** Installs the trigger on every history table, once per process (and again after `forgetInstall`). */
export async function ensureValidToTriggers(db: Context["db"]): Promise<void> {
  if (installed) return;
  for (const table of HISTORY_TABLES) {
    const config = getTableConfig(table);
    for (const statement of validToTriggerSql(config.schema ?? "public", config.name)) {
      await db.sql.execute(sql.raw(statement));
    }
  }
  installed = true;
}

/** A handler threw: Ponder rolls its batch back, the install with it. */
export function forgetInstall(): void {
  installed = false;
}
