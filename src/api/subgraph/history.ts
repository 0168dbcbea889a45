import { type SQL, sql } from "drizzle-orm";
import { type EntityDef, tableInfo } from "./model";

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
 * 1,168 domains changed since took 3.1 ms against 0.35, the latest 100 registrations 0.84 against 0.06. It stays for
 * a version whose `valid_to` is pending.) Event entities are never changed: at a version, they are the rows whose own `log_version` (their
 * log's) is at or below it.
 *
 * A recent block (where a client pins its pages, usually) has few versions above it. There a page is the best rows of
 * two parts, each read in its own index's order and limited, then merged (sql.ts, as an interface's tables are):
 *
 *   unchanged: (SELECT l.<columns>, NULL AS __version FROM <table> l
 *               WHERE NOT EXISTS (SELECT 1 FROM <table>_history c WHERE c.id = l.id AND c.version > upTo))
 *   changed:   <the history subquery above, AND h.id = ANY(ARRAY(SELECT c.id FROM <table>_history c
 *                                                              WHERE c.version > upTo))>
 *
 * so the live table's indexes find and order the page as at the head, with one key probe per row read, and the
 * history's BRIN index on the version finds the few changed ids. When they are few enough to name (recent-versions.ts
 * fetches them once per head), they come as a constant instead: `l.id <> ALL(<ids>)` and `h.id = ANY(<ids>)`, with no
 * subquery to plan or run; with none, the table reads as its live table, i.e. as at the head. A lookup by a selective
 * key reads the history alone once anything changed (`readsRecent`): such a filter finds only a few versions there,
 * and the two parts cost more to plan than that. The probe finds nothing for an unchanged row, so it
 * reads no heap page (`max(version) <= upTo` read each row's last version instead: 3× the execution time on PGlite).
 * One UNION ALL source would be simpler, but PostgreSQL cannot read a union whose parts have a WHERE in an index's
 * order: every page of `eth`'s children would sort them all. Deep in the past, where most ids changed since, the plain history subquery reads less: at-block.ts
 * asks how many versions lie above the block and picks (`recent`). `__version` is unknown on the live side, so
 * `_change_block` always reads the plain form.
 */

/**
 * The history tables with few versions above a block, read through their live table there, each with the ids changed
 * since when they are few enough to name (else null: the statement asks the history for them).
 */
export type RecentTables = ReadonlyMap<string, readonly string[] | null>;

/**
 * null: the live tables. Otherwise the history at `upTo` (a version, src/lib/history-version.ts), or its latest;
 * `recent`: the tables read through their live table.
 */
export type ReadPoint = null | { upTo: bigint | null; recent?: RecentTables };

/** Ids as one array parameter. */
export const idArray = (ids: readonly string[]): SQL => sql`${sql.param(ids)}::text[]`;

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
    const history = tableInfo(entity.history!);
    const kept = new Set(history.columns.values());
    const parts = [...live.columns.values()].map((column) =>
      kept.has(column) ? `"${alias}".${q(column)}` : `NULL::${live.sqlTypes.get(column)} AS ${q(column)}`,
    );
    // The very type of `version` (numeric(78)): a union whose columns' types differ is not flattened, and then the
    // planner can neither push a filter into it nor read it in an index's order (a page of `eth`'s children sorted
    // whole instead of read from the (parent, createdAt) index).
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

/** At a recent block: the live rows unchanged since it, or the changed ids' versions (see above). */
export type RecentPart = "unchanged" | "changed";

/** An equality on a key that names one entity, or a few (`name`, `labelhash`): what a lookup sends. */
const SELECTIVE_KEYS = ["id", "name", "labelhash"];

/**
 * An equality on an account, which the entity's history has an index for (ponder.schema.ts): the versions it finds
 * are the account's entities' versions, however many others changed since.
 */
const ACCOUNT_KEYS: Record<string, readonly string[]> = {
  Domain: ["owner", "registrant", "wrappedOwner", "resolvedAddress"],
  Registration: ["registrant"],
};

const hasEquality = (where: Record<string, unknown> | null | undefined, keys: readonly string[]) =>
  keys.some((key) => typeof where?.[key] === "string");

/**
 * Whether a page of `entity` at `at`, filtered by `where`, is read as the two parts of a recent block
 * (`npm run bench:statements`, 10,000-name devnet on PostgreSQL, SQL of a request):
 * - a lookup by a selective key reads the history alone whenever something changed since: such a filter finds only a
 *   few versions there, and planning the two parts costs more than reading them (by name with its resolver and
 *   registration, 10 domains changed since: 2.67 ms, 1.55 of it planning, in two parts with the ids named; 0.67 ms
 *   from the history alone, 0.23 ms at the head);
 * - a page of an account's entities reads the history alone once too many changed to name them (recent-versions.ts):
 *   the changed part then builds the array of every changed id (an owner's 100 of 327 domains, ≥ 1,000 domains
 *   changed since: 3.4–4.2 ms in two parts, 1.9–3.0 from the history alone; with 170 named, 1.3–1.9 in two parts).
 */
export function readsRecent(entity: EntityDef, at: ReadPoint, where?: Record<string, unknown> | null): boolean {
  const changed = changedSince(entity, at);
  if (changed === undefined || hasEquality(where, SELECTIVE_KEYS)) return false;
  return !(changed === null && hasEquality(where, ACCOUNT_KEYS[entity.name] ?? []));
}

/** At a recent block: the ids of `entity` changed since, null if too many to name; undefined if not recent. */
function changedSince(entity: EntityDef, at: ReadPoint): readonly string[] | null | undefined {
  if (!at?.recent || at.upTo === null || !entity.history) return undefined;
  return at.recent.get(tableInfo(entity.history).name);
}

/** Whether no row of `entity` changed since `at`'s block, so that its live table is the state there. */
export function unchangedSince(entity: EntityDef, at: ReadPoint): boolean {
  return changedSince(entity, at)?.length === 0;
}

/**
 * The FROM item for `entity` at `at` (a table name, or the history subquery; with `part`, one part of a recent
 * block's read); the caller adds the alias.
 */
export function entitySource(entity: EntityDef, at: ReadPoint, part?: RecentPart): SQL {
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
  const history = sql.identifier(tableInfo(entity.history).name);
  const upTo = at.upTo === null ? undefined : sql`${at.upTo.toString()}::numeric`;
  const changed = changedSince(entity, at);
  if (changed?.length === 0) return sql`(SELECT ${sql.raw(columnsOf(entity, "l"))} FROM ${live} "l")`;
  // A version whose `valid_to` is still pending (history-valid-to.ts) is tested the old way: no newer one up to `upTo`.
  const newest = sql`(SELECT max("n"."version") FROM ${history} "n" WHERE "n"."id" = "h"."id"${
    upTo ? sql` AND "n"."version" <= ${upTo}` : sql``
  })`;
  const valid = upTo
    ? sql`("h"."valid_to" IS NULL OR "h"."valid_to" > ${upTo} OR ("h"."valid_to" < 0 AND "h"."version" = ${newest}))`
    : sql`("h"."valid_to" IS NULL OR ("h"."valid_to" < 0 AND "h"."version" = ${newest}))`;
  const versions = (changedOnly: SQL) =>
    sql`SELECT ${sql.raw(columnsOf(entity, "h"))} FROM ${history} "h" WHERE ${changedOnly}${
      upTo ? sql`"h"."version" <= ${upTo} AND ` : sql``
    }NOT "h"."deleted" AND ${valid}`;
  if (!upTo || !part || changed === undefined) return sql`(${versions(sql``)})`;
  if (part === "unchanged") {
    const unchanged = changed
      ? sql`"l"."id" <> ALL(${idArray(changed)})`
      : sql`NOT EXISTS (SELECT 1 FROM ${history} "c" WHERE "c"."id" = "l"."id" AND "c"."version" > ${upTo})`;
    return sql`(SELECT ${sql.raw(columnsOf(entity, "l"))} FROM ${live} "l" WHERE ${unchanged})`;
  }
  const ids = changed
    ? idArray(changed)
    : sql`ARRAY(SELECT "c"."id" FROM ${history} "c" WHERE "c"."version" > ${upTo})`;
  return sql`(${versions(sql`"h"."id" = ANY(${ids}) AND `)})`;
}

/**
 * The FROM item for the one row of `entity` with id `id` at `at` (a reference, a root `entity(id:)`): at a version,
 * that id's last version at or below it, found by one backward probe of the (id, version) key, unless it deletes the
 * entity. The general source's `max()` test costs a probe per version of the id instead, and the union of a recent
 * block costs its planning.
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
