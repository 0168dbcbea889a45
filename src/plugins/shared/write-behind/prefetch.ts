import type { PgTable } from "drizzle-orm/pg-core";
import { writeBehindTotals } from "../../../runtime/metrics";
import {
  type PonderBatchEvent,
  type PonderKeyPattern,
  type PonderProfile,
  ponderProfile,
} from "../../../runtime/ponder-hooks";
import type { LiveRows } from "./live-rows";
import { keyOf, type Row, shapeOf } from "./rows";
import type { DatabaseReader } from "./select";

/*
 * The rows an evicted table's reads will want in a batch, loaded in one query per table as the batch begins (on
 * PostgreSQL beside its handlers, which wait only for a table whose load is still on its way). Which keys: learned as Ponder's row cache learns them (its profile.js, with our derived keys, patch
 * recordProfilePattern-derived-keys): a read the store had to answer from the database is explained as a pattern of
 * its event's values (an argument, the log's address, a derived key such as a subnode), and every later event of the
 * same handler predicts its key by that pattern. A wrong guess costs a row loaded for nothing, never a wrong answer.
 * A pattern learned inside a batch predicts the rest of that batch too: the first batch after a table's eviction
 * would otherwise read every key of it one at a time (13,080 of 15,171 reads one by one at 50,000 names, each pattern
 * learned and then unused until the next batch).
 */

/** Patterns kept per handler and table: a handler reads a table under a few keys at most. */
const MAX_PATTERNS = 8;

export class KeyPredictor {
  private profile: PonderProfile | undefined;
  private readonly patterns = new Map<string, Map<PgTable, Map<string, PonderKeyPattern>>>();
  private readonly primaryKeys = new Map<unknown, [string, unknown][]>();
  /** The open batch's events (`prefetch`): what a pattern learned inside the batch predicts (`learn`). */
  private events: readonly PonderBatchEvent[] = [];

  /**
   * Learns how `event`'s handler made `keyRow`, a key of `table` the store read from the database. A new pattern (none
   * the handler had for the table explains the key) predicts the open batch's other events of the handler too: returns
   * the keys it predicts that `rows` does not know yet (by key, the key's columns), to be read with this one.
   */
  learn(
    event: PonderBatchEvent | undefined,
    table: PgTable,
    keyRow: Row,
    rows: LiveRows,
  ): Map<string, Row> | undefined {
    const pattern = this.newPattern(event, table, keyRow);
    return pattern === undefined ? undefined : this.predictRest(event!.eventCallback.name, table, pattern, rows);
  }

  private newPattern(event: PonderBatchEvent | undefined, table: PgTable, keyRow: Row): PonderKeyPattern | undefined {
    if (event === undefined || this.profile === undefined) return undefined;
    let byTable = this.patterns.get(event.eventCallback.name);
    if (byTable === undefined) this.patterns.set(event.eventCallback.name, (byTable = new Map()));
    let known = byTable.get(table);
    if (known === undefined) byTable.set(table, (known = new Map()));
    if (known.size >= MAX_PATTERNS) return undefined;
    if (!this.primaryKeys.has(table)) this.primaryKeys.set(table, shapeOf(table).key);
    // Learning is an optimisation: an event Ponder's profile cannot read teaches nothing, and fails nothing.
    let pattern: PonderKeyPattern | undefined;
    try {
      pattern = this.profile.recordProfilePattern(event, table, keyRow, [...known.values()], this.primaryKeys);
    } catch {
      return undefined;
    }
    if (pattern === undefined) return undefined;
    const patternKey = this.profile.getProfilePatternKey(pattern);
    if (known.has(patternKey)) return undefined;
    known.set(patternKey, pattern);
    return pattern;
  }

  private predictRest(handler: string, table: PgTable, pattern: PonderKeyPattern, rows: LiveRows): Map<string, Row> {
    const keys = new Map<string, Row>();
    for (const event of this.events) {
      if (event.eventCallback.name !== handler) continue;
      const predicted = predictedKey(this.profile!, table, pattern, event);
      if (predicted !== undefined && !rows.known(table, predicted[0])) keys.set(...predicted);
    }
    return keys;
  }

  /** The backfill is over: the last batch's events are not kept through realtime. */
  forget(): void {
    this.events = [];
  }

  /**
   * Loads, for every incomplete table, the rows the batch's events predict and the store does not hold yet, through
   * `reader`: one query per table. `inBackground` (a pool of connections): the queries run side by side and the call
   * returns once they are sent, the handlers' reads waiting for their table's (`LiveRows.load`); else one after another,
   * and the call returns once all are loaded.
   */
  async prefetch(
    reader: DatabaseReader,
    events: readonly PonderBatchEvent[],
    rows: LiveRows,
    inBackground = false,
  ): Promise<void> {
    this.profile ??= await ponderProfile();
    this.events = events;
    const tables = new Set(rows.incompleteTables());
    if (tables.size === 0 || this.profile === undefined) return;
    const wanted = new Map<PgTable, Map<string, Row>>();
    for (const event of events) {
      const byTable = this.patterns.get(event.eventCallback.name);
      if (byTable === undefined) continue;
      for (const [table, patterns] of byTable) {
        if (!tables.has(table)) continue;
        for (const pattern of patterns.values()) {
          const predicted = predictedKey(this.profile, table, pattern, event);
          if (predicted === undefined || rows.known(table, predicted[0])) continue;
          let keys = wanted.get(table);
          if (keys === undefined) wanted.set(table, (keys = new Map()));
          keys.set(...predicted);
        }
      }
    }
    for (const [table, keys] of wanted) {
      rows.load(table, keys, reader);
      writeBehindTotals.prefetched += keys.size;
      if (!inBackground) await rows.settled();
    }
  }
}

/** The key of `table` that `pattern` predicts for `event`, and its columns; undefined where a part does not apply. */
function predictedKey(
  profile: PonderProfile,
  table: PgTable,
  pattern: PonderKeyPattern,
  event: PonderBatchEvent,
): [string, Row] | undefined {
  let keyRow: Row;
  try {
    keyRow = profile.recoverProfilePattern(pattern, event);
  } catch {
    return undefined;
  }
  return Object.values(keyRow).some((v) => v === undefined) ? undefined : [keyOf(table, keyRow), keyRow];
}
