import { type SQL, sql } from "drizzle-orm";
import { type EntityDef, tableInfo } from "./model";

/*
 * Where a statement reads an entity from: the live tables (the indexed head), or the entity history
 * (ponder.schema.ts, "History of the subgraph's mutable entities") as it stood at a version. A history source is a
 * subquery with the live table's columns, so every filter, order and relation of sql.ts works on it unchanged:
 *
 *   (SELECT h.<columns>, h.version AS __version FROM <table>_history h
 *    WHERE h.version <= upTo AND NOT h.deleted
 *      AND h.version = (SELECT max(n.version) FROM <table>_history n WHERE n.id = h.id AND n.version <= upTo))
 *
 * i.e. each id's last version at or below `upTo`, unless it deletes the entity. PostgreSQL pulls the subquery up
 * into the statement, so the outer filters and order use the history's indexes; the latest-version test stays a
 * subplan per candidate row, one backward probe of the (id, version) key. (As `NOT EXISTS` with a newer version, the
 * planner was free to make it a hash anti-join, which reads the whole history for every query: 2–7× the head's cost
 * in bench:graphql.) Event entities are never changed: at a version, they are the rows whose own `log_version` (their
 * log's) is at or below it.
 *
 * A recent block (where a client pins its pages, usually) has few versions above it. There the live row is the answer
 * for every id that has none, and the history is asked only for the ids that do:
 *
 *   (SELECT l.<columns>, NULL AS __version FROM <table> l
 *    WHERE NOT EXISTS (SELECT 1 FROM <table>_history c WHERE c.id = l.id AND c.version > upTo)
 *    UNION ALL
 *    <the history subquery above, AND h.id IN (SELECT c.id FROM <table>_history c WHERE c.version > upTo)>)
 *
 * so the outer filters and order use the live table's indexes, as at the head, and the history's BRIN index on the
 * version finds the few changed ids. Deep in the past, where most ids changed since, the plain history subquery reads
 * less: at-block.ts asks how many versions lie above the block and picks (`recent`). `__version` is unknown on the
 * live side, so `_change_block` always reads the plain form.
 */

/**
 * null: the live tables. Otherwise the history at `upTo` (a version, src/lib/history-version.ts), or its latest;
 * `recent` names the history tables with few versions above `upTo`, read through their live table.
 */
export type ReadPoint = null | { upTo: bigint | null; recent?: ReadonlySet<string> };

export const HEAD: ReadPoint = null;
export const LATEST_VERSIONS: ReadPoint = { upTo: null };

/** A read point as a cache key (the Loader's batches and rows at hand). */
export function readPointKey(at: ReadPoint): string {
  if (at === null) return "head";
  return at.upTo === null ? "latest" : String(at.upTo);
}

/** The column a history source adds: the version each row was read at (`_change_block` compares it). */
export const VERSION_COLUMN = "__version";

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
const selects = new Map<string, string>();

/**
 * `<alias>.<col>, …` over the live table's columns, NULL for a column the history does not keep (so that both sides
 * of a recent block's union answer alike), then `__version`: the history's `version`, or NULL from the live table.
 */
function columnsOf(entity: EntityDef, alias: "h" | "l"): string {
  const key = `${entity.name}:${alias}`;
  let cached = selects.get(key);
  if (!cached) {
    const live = tableInfo(entity.table!);
    const kept = new Set(tableInfo(entity.history!).columns.values());
    const parts = [...live.columns.values()].map((column) =>
      kept.has(column) ? `"${alias}".${q(column)}` : `NULL::${live.sqlTypes.get(column)} AS ${q(column)}`,
    );
    parts.push(alias === "h" ? `"h"."version" AS ${q(VERSION_COLUMN)}` : `NULL::numeric AS ${q(VERSION_COLUMN)}`);
    cached = parts.join(", ");
    selects.set(key, cached);
  }
  return cached;
}

/** The FROM item for `entity` at `at` (a table name, or the history subquery); the caller adds the alias. */
export function entitySource(entity: EntityDef, at: ReadPoint): SQL {
  const live = sql.identifier(tableInfo(entity.table!).name);
  if (at === null) return sql`${live}`;
  if (entity.immutable) {
    // An event exists from its own version on and never changes.
    const version = sql`"e".${sql.identifier(tableInfo(entity.table!).columns.get("logVersion")!)}`;
    return sql`(SELECT "e".*, ${version} AS ${sql.identifier(VERSION_COLUMN)} FROM ${live} "e"${
      at.upTo === null ? sql`` : sql` WHERE ${version} <= ${at.upTo.toString()}::numeric`
    })`;
  }
  if (!entity.history) throw new Error(`${entity.name} keeps no history`);
  const historyName = tableInfo(entity.history).name;
  const history = sql.identifier(historyName);
  const upTo = at.upTo === null ? undefined : sql`${at.upTo.toString()}::numeric`;
  const versions = (changedOnly: SQL) =>
    sql`SELECT ${sql.raw(columnsOf(entity, "h"))} FROM ${history} "h" WHERE ${changedOnly}${
      upTo ? sql`"h"."version" <= ${upTo} AND ` : sql``
    }NOT "h"."deleted" AND "h"."version" = (SELECT max("n"."version") FROM ${history} "n" WHERE "n"."id" = "h"."id"${
      upTo ? sql` AND "n"."version" <= ${upTo}` : sql``
    })`;
  if (!upTo || !at.recent?.has(historyName)) return sql`(${versions(sql``)})`;
  return sql`(SELECT ${sql.raw(columnsOf(entity, "l"))} FROM ${live} "l" WHERE NOT EXISTS (SELECT 1 FROM ${history} "c" WHERE "c"."id" = "l"."id" AND "c"."version" > ${upTo}) UNION ALL ${versions(
    sql`"h"."id" IN (SELECT "c"."id" FROM ${history} "c" WHERE "c"."version" > ${upTo}) AND `,
  )})`;
}

/** The same point, read from the history alone (`_change_block` needs every row's version). */
export function withoutLiveRows(at: ReadPoint): ReadPoint {
  return at === null || !at.recent ? at : { upTo: at.upTo };
}

/** Whether a filter (at any depth: `and`, `or`, nested `field_`) holds `_change_block`. */
export function usesChangeBlock(where: unknown): boolean {
  if (Array.isArray(where)) return where.some(usesChangeBlock);
  if (where === null || typeof where !== "object") return false;
  return Object.entries(where).some(
    ([key, value]) => (key === "_change_block" && value != null) || usesChangeBlock(value),
  );
}
