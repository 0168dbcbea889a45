import { getTableName } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import * as tables from "../../../ponder.schema";

/*
 * The subgraph's mutable entities and their history tables (ponder.schema.ts, "History of the subgraph's mutable
 * entities"), listed once for everything that reads or writes versions: the writer (writer.ts), the pruning,
 * the valid_to trigger's installer and the readers at a past block. The relative import is the module `ponder:schema`
 * re-exports, so the tables are the very objects the handlers pass to `context.db`.
 */

/** Each tracked table and its history table. */
export const ENTITY_HISTORIES: ReadonlyMap<PgTable, PgTable> = new Map([
  [tables.domain, tables.domainHistory],
  [tables.account, tables.accountHistory],
  [tables.resolver, tables.resolverHistory],
  [tables.registration, tables.registrationHistory],
  [tables.wrappedDomain, tables.wrappedDomainHistory],
] as [PgTable, PgTable][]);

export const HISTORY_TABLES: readonly PgTable[] = [...ENTITY_HISTORIES.values()];

export const HISTORY_TABLE_NAMES: readonly string[] = HISTORY_TABLES.map((table) => getTableName(table));
