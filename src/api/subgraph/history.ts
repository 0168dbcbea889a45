import { type SQL, sql } from "drizzle-orm";
import { type EntityDef, tableInfo } from "./model";
import type { ReadPoint } from "./reading";

/*
 * Where a statement reads an entity from: the live tables (the indexed head), or the entity history
 * (ponder.schema.ts, "History of the subgraph's mutable entities") as it stood at a version. A history source is a
 * subquery with the live table's columns, so every filter, order and relation of sql.ts works on it unchanged:
 *
 *   (SELECT h.<columns>, h.version AS __version FROM <table>_history h
 *    WHERE h.version <= upTo AND NOT h.deleted AND (h.valid_to IS NULL OR h.valid_to > upTo))
 *
 * i.e. each id's version valid at `upTo` (its last at or below it), unless it deletes the entity. PostgreSQL pulls
 * the subquery up into the statement, so the outer filters and order use the history's indexes, and each version it
 * walks is tested by its own columns. (Before `valid_to`, the test was a subplan per candidate row, a backward probe
 * of the (id, version) key for a newer version: on the 10,000-name devnet, `eth`'s 100 newest children at a block
 * 1,168 domains changed since took 3.1 ms against 0.35, the latest 100 registrations 0.84 against 0.06.) Every
 * version's `valid_to` is settled when it is committed (src/lib/entity-history/README.md). Event entities are never changed: at a version, they are the rows whose own
 * `log_version` (their log's) is at or below it.
 *
 * A table with no version above the block (where a client pins its pages, usually nothing changed since in most
 * tables) reads as its live table, i.e. as at the head: unchanged-tables.ts finds them, once per indexed head. The
 * live side has no `__version`, so `_change_block` always reads the history.
 *
 * (Before `valid_to`, a recent block's page was the best rows of two parts, the live rows unchanged since and the
 * changed ids' versions, each read in its own index's order and merged. With `valid_to` the history alone reads
 * less at every depth: `npm run bench:statements`, docs/benchmarks.md "Entity history".)
 */

/** Ids as one array parameter. */
export const idArray = (ids: readonly string[]): SQL => sql`${sql.param(ids)}::text[]`;

/** The column a history source adds: the version each row was read at (`_change_block` compares it). */
export const VERSION_COLUMN = "__version";

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
const selects = new Map<string, string>();

/**
 * `<alias>.<col>, …` over the live table's columns, NULL for a column the history does not keep (so that both
 * sources answer alike), then `__version`: the history's `version`, or NULL (of its type) from the live table.
 */
function columnsOf(entity: EntityDef, alias: "h" | "l"): string {
  const key = `${entity.name}:${alias}`;
  let cached = selects.get(key);
  if (!cached) {
    const live = tableInfo(entity.table!);
    const history = tableInfo(entity.history!);
    const kept = new Set(history.columns.values());
    const parts = [...live.columns.values()].map((column) =>
      kept.has(column) ? `"${alias}".${q(column)}` : `NULL::${live.sqlTypes.get(column)} AS ${q(column)}`,
    );
    parts.push(
      alias === "h"
        ? `"h"."version" AS ${q(VERSION_COLUMN)}`
        : `NULL::${history.sqlTypes.get("version")} AS ${q(VERSION_COLUMN)}`,
    );
    cached = parts.join(", ");
    selects.set(key, cached);
  }
  return cached;
}

/** Whether no row of `entity` changed since `at`'s block, so that its live table is the state there. */
function unchangedSince(entity: EntityDef, at: ReadPoint): boolean {
  return !!at?.unchanged && at.upTo !== null && !!entity.history && at.unchanged.has(tableInfo(entity.history).name);
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
  if (unchangedSince(entity, at)) return sql`(SELECT ${sql.raw(columnsOf(entity, "l"))} FROM ${live} "l")`;
  const history = sql.identifier(tableInfo(entity.history).name);
  const upTo = at.upTo === null ? undefined : sql`${at.upTo.toString()}::numeric`;
  const valid = upTo ? sql`("h"."valid_to" IS NULL OR "h"."valid_to" > ${upTo})` : sql`"h"."valid_to" IS NULL`;
  return sql`(SELECT ${sql.raw(columnsOf(entity, "h"))} FROM ${history} "h" WHERE ${
    upTo ? sql`"h"."version" <= ${upTo} AND ` : sql``
  }NOT "h"."deleted" AND ${valid})`;
}

/**
 * The FROM item for the one row of `entity` with id `id` at `at` (a reference, a root `entity(id:)`): at a version,
 * that id's last version at or below it, found by one backward probe of the (id, version) key, unless it deletes the
 * entity.
 */
export function entityById(entity: EntityDef, at: ReadPoint, id: SQL): SQL {
  const live = sql.identifier(tableInfo(entity.table!).name);
  if (at === null || unchangedSince(entity, at)) return sql`(SELECT * FROM ${live} "l" WHERE "l"."id" = ${id})`;
  if (entity.immutable) return sql`(SELECT * FROM ${entitySource(entity, at)} "e" WHERE "e"."id" = ${id})`;
  if (!entity.history) throw new Error(`${entity.name} keeps no history`);
  const history = sql.identifier(tableInfo(entity.history).name);
  const upTo = at.upTo === null ? sql`` : sql` AND "h"."version" <= ${at.upTo.toString()}::numeric`;
  return sql`(SELECT * FROM (SELECT ${sql.raw(columnsOf(entity, "h"))}, "h"."deleted" AS "__deleted" FROM ${history} "h" WHERE "h"."id" = ${id}${upTo} ORDER BY "h"."version" DESC LIMIT 1) "k" WHERE NOT "k"."__deleted")`;
}
