import { is } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import * as schema from "../../../../ponder.schema";
import { HISTORY_TABLES } from "../../../lib/entity-history/tables";
import { isMarkedInsertOnly } from "../../../runtime/ponder-hooks";

/*
 * The tables the write-behind store takes during the backfill: the rows only ever inserted (each log's `indexed_log`
 * row, the subgraph's event tables, the entity history's versions). Ponder's store keeps every other table: the
 * live entities, which handlers read and update, and `registrar_action`, which a later event updates.
 */

const TABLES: ReadonlySet<PgTable> = new Set(
  (Object.values(schema) as unknown[]).filter(
    (t): t is PgTable => isMarkedInsertOnly(t) && t !== (schema.registrarAction as unknown),
  ),
);

export function isWriteBehindTable(table: PgTable): boolean {
  return TABLES.has(table);
}

/** For tests and the docs: the tables' names. */
export const WRITE_BEHIND_TABLES: readonly PgTable[] = [...TABLES];

/**
 * The live tables (NAMEINDEX_WRITE_BEHIND_LIVE): every other table of the schema, which handlers read, update and
 * delete (the entities, protocol acceleration's and the Omnigraph's tables, `registrar_action`). Realtime leaves
 * them to Ponder's store.
 */
export const LIVE_TABLES: readonly PgTable[] = (Object.values(schema) as unknown[]).filter(
  (t): t is PgTable => is(t, PgTable) && !TABLES.has(t),
);

// Every history table is insert-only: a version changes only in its own block (an upsert of the held row).
for (const table of HISTORY_TABLES)
  if (!TABLES.has(table)) throw new Error("a history table lost its insert-only mark (ponder.schema.ts)");
