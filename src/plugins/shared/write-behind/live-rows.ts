import type { PgTable } from "drizzle-orm/pg-core";
import { writeBehindTotals } from "../../../runtime/metrics";
import type { PonderBatchTransaction, PonderPoolQuery } from "../../../runtime/ponder-hooks";
import { keyColumns, keyOf, type Row, rowBytes } from "./rows";
import { type DatabaseReader, readRows, readTableUpTo } from "./select";
import { type TableChanges, writeTable } from "./writes";

/*
 * The live tables' rows during the backfill: the store answers every read of them, so Ponder's row cache never hands
 * out a row this store has changed behind it. Per table, the rows it holds and whether the database has each one:
 * - a table is "complete" when the store holds every row the database has (loaded whole at the backfill's first batch
 *   while small, or started empty): a key it does not hold is no row, without a database read;
 * - past the bound (NAMEINDEX_WRITE_BEHIND_BYTES), whole tables are evicted between batches, the fewest reads per byte
 *   held first; an evicted table holds only the batch's rows, loaded in bulk before the batch from the keys its events
 *   predict (./prefetch.ts), and reads a key nobody predicted through the batch's transaction (or, while the previous
 *   batch's rows are on their way on it, Ponder's pool).
 * A batch's changes reach the database (./writes.ts) in its own transaction or, pipelined, in the next batch's
 * (./batch.ts), with the checkpoint of the batch they belong to.
 */

/**
 * A held key: its row (null: no row) and whether the database has a row under it, as of the last commit (undefined: not
 * known, the key was written unread; see `writeUnread`).
 */
interface Entry {
  row: Row | null;
  stored: boolean | undefined;
  /** The key's columns, for the DELETE of a row this batch deleted. */
  keyRow?: Row;
}

interface TableRows {
  entries: Map<string, Entry>;
  /** Keys changed in the open batch, and their `stored` before it (what the flush must do). */
  changed: Set<string>;
  complete: boolean;
  bytes: number;
  /** Reads of this table, all time: eviction keeps the most read per byte held. */
  reads: number;
  /** A bulk load of this batch's predicted keys still on its way (`load`): a read of a key not held waits for it. */
  loading: Promise<void> | undefined;
}

/** A closed batch's changes of the live tables, and the entries they came from (see `begin`). */
export interface FrozenLiveRows {
  tables: [PgTable, TableChanges][];
  entries: [TableRows, string, Entry][];
}

/** Writes a closed batch's changes in `tx`: per table one COPY, one UPDATE … FROM and one DELETE at most. */
export async function writeFrozen(tx: PonderBatchTransaction, frozen: FrozenLiveRows): Promise<void> {
  for (const [table, changes] of frozen.tables) {
    await writeTable(tx, table, changes);
    writeBehindTotals.rows += changes.inserts.length + changes.updates.length + changes.deletes.length;
  }
}

/** Tables of at most this many rows are loaded whole at the backfill's first batch (setup's rows, a restart's). */
const LOAD_WHOLE_ROWS = 10_000;

export class LiveRows {
  private readonly tables = new Map<PgTable, TableRows>();
  private tx: PonderBatchTransaction | undefined;
  /** Where a read the store cannot answer goes: the batch's transaction, or Ponder's pool (`readThrough`). */
  private reader: DatabaseReader | undefined;
  private hasStarted = false;
  /** Bumped at every reset: a load that began before one finds the store moved on, and loads nothing. */
  private generation = 0;
  private readonly loads = new Set<Promise<void>>();

  constructor(
    private readonly taken: readonly PgTable[],
    private readonly bound: () => number,
    /**
     * Told of every key the store has to read from the database unpredicted, so that later events predict it; returns
     * the keys of the open batch a pattern learned from it predicts (by key, the key's columns), read with it in one
     * query.
     */
    private readonly onMiss: (table: PgTable, keyRow: Row) => Map<string, Row> | undefined = () => undefined,
  ) {}

  /** Whether the store answers for `table` now (inside a batch). */
  holds(table: PgTable): boolean {
    return this.tx !== undefined && this.tables.has(table);
  }

  /** Whether the backfill's batches have begun (and not ended: `close`). */
  get started(): boolean {
    return this.hasStarted;
  }

  /**
   * Opens a batch. `retry`: Ponder runs a batch again after a failure, and what the store believed of the database may
   * be a rolled-back transaction's, so it starts over from the database (every table incomplete, nothing held).
   * `inFlight`: the previous batch's changes, which this batch's transaction writes while its handlers run (the
   * pipeline, ./batch.ts); an incomplete table keeps those keys, so that no read of them goes to the database before
   * their write.
   */
  async begin(tx: PonderBatchTransaction, retry: boolean, inFlight?: FrozenLiveRows): Promise<void> {
    if (retry || this.tx !== undefined) this.reset();
    this.tx = tx;
    this.reader = tx;
    if (!this.hasStarted) {
      this.hasStarted = true;
      for (const table of this.taken) await this.loadWhole(tx, table);
    }
    this.evictPastBound();
    for (const rows of this.tables.values()) if (!rows.complete) rows.entries.clear();
    if (retry) return;
    for (const [state, key, entry] of inFlight?.entries ?? []) if (!state.complete) state.entries.set(key, entry);
  }

  /**
   * Sends this batch's reads to `pool` instead of the transaction, while the previous batch's rows are being written on
   * it: a pooled connection sees every committed batch, and the only one it does not see, the previous batch, is held
   * here (every key it changed: see `begin`). Not after a retry, whose transaction alone has that batch's rows.
   */
  readThrough(pool: PonderPoolQuery): void {
    this.reader = pool;
  }

  private async loadWhole(tx: PonderBatchTransaction, table: PgTable): Promise<void> {
    const rows = await readTableUpTo(tx, table, LOAD_WHOLE_ROWS);
    const state: TableRows = {
      entries: new Map(),
      changed: new Set(),
      complete: rows !== undefined,
      bytes: 0,
      reads: 0,
      loading: undefined,
    };
    for (const row of rows ?? []) {
      state.entries.set(keyOf(table, row), { row, stored: true });
      state.bytes += rowBytes(row);
    }
    this.tables.set(table, state);
  }

  private evictPastBound(): void {
    let total = 0;
    for (const rows of this.tables.values()) total += rows.bytes;
    if (total <= this.bound()) return;
    // The fewest reads per byte held first: the memory that costs the fewest database reads to give up. Least read
    // first would go through the small tables, each freeing little and adding its own prefetch query per batch; an
    // empty table frees nothing.
    const readsPerByte = (r: TableRows) => r.reads / r.bytes;
    const byValue = [...this.tables.values()]
      .filter((r) => r.complete && r.bytes > 0)
      .sort((a, b) => readsPerByte(a) - readsPerByte(b));
    for (const rows of byValue) {
      total -= rows.bytes;
      rows.entries.clear();
      rows.bytes = 0;
      rows.complete = false;
      writeBehindTotals.evictions += 1;
      if (total <= this.bound()) break;
    }
  }

  /** The tables that answer a miss from the database: the ones a prefetch loads for. */
  incompleteTables(): PgTable[] {
    return [...this.tables].filter(([, r]) => !r.complete).map(([t]) => t);
  }

  /**
   * Starts loading the rows under `keys` (by key, the key's columns) of `table` through `reader`, and does not wait:
   * the handlers go on, and a read of a key the store does not hold waits for the load first. A load that fails
   * loads nothing (those reads go to the database one by one), and one that ends after a reset is dropped.
   */
  load(table: PgTable, keys: Map<string, Row>, reader: DatabaseReader): void {
    const state = this.tables.get(table)!;
    const generation = this.generation;
    const loading = readRows(reader, table, [...keys.values()]).then(
      (rows) => {
        if (this.generation === generation) this.loaded(table, keys.keys(), rows);
      },
      () => {},
    );
    // A read waits for every load of its table still on its way (the batch's prefetch, and those begun at a miss).
    const pending = state.loading === undefined ? loading : Promise.all([state.loading, loading]).then(() => {});
    state.loading = pending;
    this.loads.add(loading);
    void loading.then(() => this.loads.delete(loading));
    void pending.then(() => {
      if (state.loading === pending) state.loading = undefined;
    });
  }

  /** When every load begun (`load`) has ended. */
  async settled(): Promise<void> {
    await Promise.all(this.loads);
  }

  /** Holds rows read in bulk before the batch: `keys` found or not. */
  loaded(table: PgTable, keys: Iterable<string>, rows: Row[]): void {
    const state = this.tables.get(table)!;
    const found = new Map(rows.map((row) => [keyOf(table, row), row]));
    for (const key of keys) {
      if (state.entries.has(key)) continue;
      const row = found.get(key) ?? null;
      state.entries.set(key, { row, stored: row !== null });
    }
  }

  /** Whether the store knows `key` without the database: held, or absent from a complete table. */
  known(table: PgTable, key: string): boolean {
    const state = this.tables.get(table)!;
    return state.complete || state.entries.has(key);
  }

  /**
   * The row under `key` when the store answers it without waiting, null if there is none; undefined when only `get`
   * can say (a load of the table on its way, or a key an incomplete table does not hold). Most reads end here: through
   * `get`, each would cost an async call (~0.7 s of a 50,000-name backfill's main thread, docs/benchmarks.md).
   */
  peek(table: PgTable, key: string): Row | null | undefined {
    const state = this.tables.get(table)!;
    const entry = state.entries.get(key);
    if (entry !== undefined) {
      state.reads += 1;
      return entry.row;
    }
    if (state.complete && state.loading === undefined) {
      state.reads += 1;
      return null;
    }
    return undefined;
  }

  /**
   * The row under `key` (of `keySource`, a row holding the key's columns), null if none: from the held rows, else (an
   * incomplete table) the database (`reader`).
   */
  async get(table: PgTable, key: string, keySource: Row): Promise<Row | null> {
    const state = this.tables.get(table)!;
    state.reads += 1;
    let entry = state.entries.get(key);
    if (entry === undefined && state.loading !== undefined) {
      await state.loading;
      entry = state.entries.get(key);
    }
    if (entry !== undefined) return entry.row;
    if (state.complete) return null;
    writeBehindTotals.misses += 1;
    const keyRow = keyColumns(table, keySource);
    const started = performance.now();
    const rest = this.onMiss(table, keyRow);
    if (rest !== undefined && rest.size > 0) {
      writeBehindTotals.prefetched += rest.size;
      rest.set(key, keyRow);
      this.load(table, rest, this.reader!);
      await state.loading;
      entry = state.entries.get(key);
    }
    // Alone, or after a load that failed or was dropped (a reset).
    if (entry === undefined) {
      const [row = null] = await readRows(this.reader!, table, [keyRow]);
      state.entries.set(key, (entry = { row, stored: row !== null }));
    }
    writeBehindTotals.missSeconds += (performance.now() - started) / 1000;
    return entry.row;
  }

  /**
   * A plain insert's row under `key`: false, and nothing changes, when the store holds a row under it. A key the store
   * does not know (an evicted table, not read) is taken as new: the database refuses a stored one at the COPY, as it
   * refuses Ponder's optimistic insert at its flush. One lookup, where a read and then a `put` take three.
   */
  add(table: PgTable, key: string, row: Row): boolean {
    const state = this.tables.get(table)!;
    const entry = state.entries.get(key);
    if (entry === undefined) {
      state.entries.set(key, { row, stored: false });
      if (state.complete) {
        state.reads += 1;
        state.bytes += rowBytes(row);
      }
    } else {
      state.reads += 1;
      if (entry.row !== null) return false;
      entry.row = row;
    }
    state.changed.add(key);
    return true;
  }

  /**
   * Sets the row under `key`, or deletes it (`row` null, `keyRow` its key's columns). The caller has read the key
   * first, or inserts blindly: a key the store never read is taken as new, and a stored one fails at the COPY, as
   * Ponder's optimistic insert fails at its flush.
   */
  put(table: PgTable, key: string, row: Row | null, keyRow?: Row): void {
    const state = this.tables.get(table)!;
    const entry = state.entries.get(key);
    if (entry === undefined) {
      state.entries.set(key, { row, stored: false });
      if (state.complete && row !== null) state.bytes += rowBytes(row);
    } else {
      entry.row = row;
      if (row === null) entry.keyRow = keyRow;
    }
    state.changed.add(key);
  }

  /**
   * Sets the row under a key the store does not know (`known` is false), or deletes it (`row` null, `keyRow` its key's
   * columns), without reading whether the database has one: for a write whose outcome is the same either way (an
   * upsert of the row's own values, a delete whose answer nobody asks for). At the flush the key is deleted, and its
   * row, if any, copied in after.
   */
  writeUnread(table: PgTable, key: string, row: Row | null, keyRow?: Row): void {
    const state = this.tables.get(table)!;
    state.entries.set(key, { row, stored: undefined, keyRow: row === null ? keyRow : undefined });
    state.changed.add(key);
    writeBehindTotals.unread += 1;
  }

  /**
   * Closes the batch: its changes, to be written by `writeFrozen` (in this transaction, or the next one's); the held
   * rows now stand for the database as it will be once they are.
   */
  freeze(): FrozenLiveRows {
    const frozen: FrozenLiveRows = { tables: [], entries: [] };
    for (const [table, state] of this.tables) {
      if (state.changed.size === 0) continue;
      const changes: TableChanges = { inserts: [], updates: [], deletes: [] };
      for (const key of state.changed) {
        const entry = state.entries.get(key)!;
        if (entry.row === null) {
          if (entry.stored !== false) changes.deletes.push(entry.keyRow!);
        } else if (entry.stored === undefined) {
          changes.deletes.push(keyColumns(table, entry.row));
          changes.inserts.push(entry.row);
        } else (entry.stored ? changes.updates : changes.inserts).push(entry.row);
        frozen.entries.push([state, key, entry]);
        entry.stored = entry.row !== null;
      }
      state.changed.clear();
      frozen.tables.push([table, changes]);
    }
    this.tx = this.reader = undefined;
    return frozen;
  }

  /** Forgets everything: the next reads go to the database. */
  reset(): void {
    this.generation += 1;
    for (const state of this.tables.values()) {
      state.entries.clear();
      state.changed.clear();
      state.complete = false;
      state.bytes = 0;
      state.loading = undefined;
    }
    this.tx = this.reader = undefined;
  }

  /** The backfill is over: nothing is held in realtime (Ponder's store answers, from the committed rows). */
  close(): void {
    this.reset();
    this.hasStarted = false;
  }
}
