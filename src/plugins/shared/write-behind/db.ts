import type { Context } from "ponder:registry";
import type { PgTable } from "drizzle-orm/pg-core";
import { DISCARD, discardRow } from "../../../lib/discard";
import { insertBuilders, PlainInsert } from "../../../lib/plain-insert";
import { backfillBatch } from "./batch";
import { liveDb, liveRows } from "./live";
import { completeRow, keyOf, type Row } from "./rows";
import { isWriteBehindTable } from "./tables";

/*
 * The `context.db` a handler gets during the backfill: inserts into the write-behind tables (./tables.ts) are held
 * by the batch (./batch.ts) instead of going through Ponder's store, which costs ~28 µs a call whatever the call; every
 * other table, and every table outside a backfill batch, is Ponder's store as it is. Handlers do not change: the
 * calls they make on these tables (insert; `onConflictDoNothing` and `onConflictDoUpdate` where a key may exist) keep
 * their meaning, the held rows standing in for the database until the batch's COPY.
 */

type Db = Context["db"];
type Set = Row | ((row: Row) => Row);

const wrapped = new WeakMap<Db, Db>();

export function withWriteBehind(db: Db): Db {
  let out = wrapped.get(db);
  if (out === undefined) {
    out = wrap(db);
    wrapped.set(db, out);
  }
  return out;
}

const held = (table: PgTable) => backfillBatch.open && isWriteBehindTable(table);

function wrap(db: Db): Db {
  const inner = wrapInsertOnly(db);
  /** A live table in a backfill batch: the live store's alone (./live-db.ts). Past the backfill, nothing is held. */
  const live = (table: PgTable): boolean => {
    if (liveRows.holds(table)) return true;
    if (!backfillBatch.open && liveRows.started) liveRows.close();
    return false;
  };
  return {
    find: (table: PgTable, key: Row) =>
      live(table) ? liveDb.find(table, key) : inner.find(table as never, key as never),
    insert: (table: PgTable) => (live(table) ? liveDb.insert(table) : inner.insert(table as never)),
    update: (table: PgTable, key: Row) =>
      live(table) ? liveDb.update(table, key) : inner.update(table as never, key as never),
    delete: (table: PgTable, key: Row) =>
      live(table) ? liveDb.delete(table, key) : inner.delete(table as never, key as never),
    [DISCARD]: (table: PgTable, key: Row) => (live(table) ? liveDb.discard(table, key) : discardRow(inner, table, key)),
    sql: db.sql,
  } as unknown as Db;
}

function wrapInsertOnly(db: Db): Db {
  const find = (table: PgTable, key: Row) => {
    if (!held(table)) return db.find(table as never, key as never);
    const row = backfillBatch.get(table, keyOf(table, key));
    return row !== undefined ? Promise.resolve({ ...row }) : db.find(table as never, key as never);
  };

  const heldInsert = insertBuilders((table: PgTable, values: Row | Row[]) => new HeldInsert(db, table, values));
  const insert = (table: PgTable) => (held(table) ? heldInsert(table) : db.insert(table as never));

  const update = (table: PgTable, key: Row) => {
    if (!held(table)) return db.update(table as never, key as never);
    return {
      async set(set: Set) {
        const k = keyOf(table, key);
        const inBatch = backfillBatch.get(table, k);
        if (inBatch === undefined) return db.update(table as never, key as never).set(set as never);
        const next = { ...inBatch, ...(typeof set === "function" ? set({ ...inBatch }) : set) };
        backfillBatch.set(table, k, next);
        return { ...next };
      },
    };
  };

  const del = async (table: PgTable, key: Row) => {
    if (held(table) && backfillBatch.get(table, keyOf(table, key)) !== undefined)
      throw new Error("write-behind tables are append-only: a row of the open batch cannot be deleted");
    return db.delete(table as never, key as never);
  };

  return { find, insert, update, delete: del, sql: db.sql } as unknown as Db;
}

/**
 * `insert(table).values(…)` on an insert-only table in a batch: awaited as it is, a plain insert, held; or
 * `onConflictDoNothing()`, `onConflictDoUpdate(set)`, which honour a key held by the batch or stored by an earlier one.
 * A class, not an object of closures: one of these is made per insert a handler makes.
 */
class HeldInsert extends PlainInsert {
  private readonly rows: Row[];
  private readonly single: boolean;

  constructor(
    private readonly db: Db,
    private readonly table: PgTable,
    values: Row | Row[],
  ) {
    super();
    this.single = !Array.isArray(values);
    this.rows = Array.isArray(values) ? values.map((v) => completeRow(table, v)) : [completeRow(table, values)];
  }

  async onConflictDoNothing(): Promise<Row | null | Row[]> {
    const { db, table } = this;
    const written: (Row | null)[] = [];
    for (const row of this.rows) {
      const key = keyOf(table, row);
      // Taken by a row of this batch, or by one the database (or Ponder's cache) holds.
      if (backfillBatch.get(table, key) ?? (await db.find(table as never, row as never))) {
        written.push(null);
        continue;
      }
      backfillBatch.set(table, key, row);
      written.push({ ...row });
    }
    return this.single ? written[0]! : written.filter((r) => r !== null);
  }

  async onConflictDoUpdate(set: Set): Promise<Row | Row[]> {
    const { db, table } = this;
    const written: Row[] = [];
    for (const row of this.rows) {
      const key = keyOf(table, row);
      const inBatch = backfillBatch.get(table, key);
      if (inBatch !== undefined) {
        const changes = typeof set === "function" ? set({ ...inBatch }) : set;
        const next = { ...inBatch, ...changes };
        backfillBatch.set(table, key, next);
        written.push({ ...next });
      } else if (await db.find(table as never, row as never)) {
        // A row of an earlier batch: Ponder's store updates it where it lies.
        const done = await db
          .insert(table as never)
          .values(row as never)
          .onConflictDoUpdate(set as never);
        written.push(done as Row);
      } else {
        backfillBatch.set(table, key, row);
        written.push({ ...row });
      }
    }
    return this.single ? written[0]! : written;
  }

  /** No key is built: the database refuses a key taken twice at the COPY (./held-rows.ts). */
  protected async plain(): Promise<Row | Row[]> {
    for (const row of this.rows) backfillBatch.append(this.table, row);
    return this.single ? { ...this.rows[0]! } : this.rows.map((r) => ({ ...r }));
  }
}
