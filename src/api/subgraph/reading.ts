/*
 * The read point: what a statement reads, from a root field's `block:` and the `_change_block` filters of its lists
 * (docs/api.md, "/subgraph at a past block"). at-block.ts makes it (`readingFor`, `nestedReading`), sql.ts and
 * history.ts build SQL from it, the Loader keys its batches and rows by `readingKey`, and every reader of a filter's
 * `_change_block` walks it with `changeBlocksOf`.
 */

/** The history tables with no version above a block (their live table is the state there), by table name. */
export type UnchangedTables = ReadonlySet<string>;

/**
 * null: the live tables. Otherwise the history at `upTo` (a version, src/lib/entity-history/version.ts), or its latest;
 * `unchanged`: the tables read through their live table.
 */
export type ReadPoint = null | { upTo: bigint | null; unchanged?: UnchangedTables };

/**
 * What a statement reads: the live tables or the history at a version, and the first version of each block that a
 * `_change_block: { number_gte }` of the query names (resolved before the SQL is built).
 */
export interface Reading {
  at: ReadPoint;
  blockStarts: ReadonlyMap<number, bigint>;
}

export const READ_HEAD: Reading = { at: null, blockStarts: new Map() };
/** Every id's latest version (a `_change_block` at the head compares versions, which only the history has). */
export const LATEST_VERSIONS: ReadPoint = { upTo: null };

/** A reading as the prefix of a cache or batch key: empty for the live tables, so head reads share their keys. */
export function readingKey(reading: Reading): string {
  const at = reading.at;
  if (at === null) return "";
  return `@${at.upTo === null ? "latest" : String(at.upTo)}|`;
}

/**
 * The block numbers of every `_change_block: { number_gte }` in a filter, at any depth (`and`, `or`, nested
 * `field_`); empty when it has none. The one walk of `where` for the read point.
 */
export function changeBlocksOf(where: unknown, into = new Set<number>()): Set<number> {
  if (Array.isArray(where)) {
    for (const w of where) changeBlocksOf(w, into);
  } else if (where !== null && typeof where === "object") {
    for (const [key, value] of Object.entries(where)) {
      if (key !== "_change_block") changeBlocksOf(value, into);
      else if (value !== null && value !== undefined)
        into.add((value as { number_gte?: unknown }).number_gte as number);
    }
  }
  return into;
}
