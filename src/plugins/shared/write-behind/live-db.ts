import { getTableName } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { insertBuilders, PlainInsert } from "../../../lib/plain-insert";
import type { LiveRows } from "./live-rows";
import { completeRow, copyRow, keyColumns, keyOf, type Row, shapeOf, updatedRow } from "./rows";

/*
 * `context.db` on a live table inside a backfill batch, answered by the live store (./live-rows.ts) with the meaning
 * Ponder's store gives each call: `find` a copy or null; a plain insert refused on a key that has a row;
 * `onConflictDoNothing` null on one; `onConflictDoUpdate` and `update().set` apply the set (a function gets the row as
 * it stands) and refuse a change of the key; `update` of no row fails; `delete` says whether there was one. Every row
 * handed out is a copy, so a handler changing it changes nothing held.
 */

type Set = Row | ((row: Row) => Row);

const apply = (table: PgTable, row: Row, set: Set): Row =>
  updatedRow(table, row, typeof set === "function" ? set(copyRow(row)) : set);

const notFound = (table: PgTable) => new Error(`No existing record found in table '${getTableName(table)}'`);

/** The row under `key` (null if none), without an async call where the store answers at once (`peek`). */
const rowAt = (liveRows: LiveRows, table: PgTable, key: string, keySource: Row): Row | null | Promise<Row | null> => {
  const row = liveRows.peek(table, key);
  return row !== undefined ? row : liveRows.get(table, key, keySource);
};

const copyOrNull = (row: Row | null): Row | null => (row === null ? null : copyRow(row));

export const liveDbOf = (liveRows: LiveRows) => {
  const remove = async (table: PgTable, key: Row): Promise<boolean> => {
    const k = keyOf(table, key);
    if ((await rowAt(liveRows, table, k, key)) === null) return false;
    liveRows.put(table, k, null, keyColumns(table, key));
    return true;
  };
  return {
    find(table: PgTable, key: Row): Promise<Row | null> {
      const row = rowAt(liveRows, table, keyOf(table, key), key);
      return row instanceof Promise ? row.then(copyOrNull) : Promise.resolve(copyOrNull(row));
    },

    insert: insertBuilders((table: PgTable, values: Row | Row[]) => new LiveInsert(liveRows, table, values)),

    update: (table: PgTable, key: Row) => new LiveUpdate(liveRows, table, key),

    delete: remove,

    /** A delete whose answer nobody asks for (src/lib/discard.ts): a key the store does not know is deleted unread. */
    async discard(table: PgTable, key: Row): Promise<void> {
      const k = keyOf(table, key);
      if (liveRows.known(table, k)) await remove(table, key);
      else liveRows.writeUnread(table, k, null, keyColumns(table, key));
    },
  };
};

/**
 * `insert(table).values(…)`: awaited as it is, a plain insert; or `onConflictDoNothing()`, `onConflictDoUpdate(set)`.
 * A class, not an object of closures: one of these is made per insert a handler makes.
 */
class LiveInsert extends PlainInsert {
  private readonly rows: Row[];
  private readonly single: boolean;

  constructor(
    private readonly liveRows: LiveRows,
    private readonly table: PgTable,
    private readonly values: Row | Row[],
  ) {
    super();
    this.single = !Array.isArray(values);
    // completeRow builds a new row, and new arrays and JSON values in it: nothing of the caller's is held.
    this.rows = Array.isArray(values) ? values.map((v) => completeRow(table, v)) : [completeRow(table, values)];
  }

  async onConflictDoNothing(): Promise<Row | null | (Row | null)[]> {
    const out: (Row | null)[] = [];
    for (const row of this.rows) {
      const key = keyOf(this.table, row);
      if ((await rowAt(this.liveRows, this.table, key, row)) !== null) out.push(null);
      else {
        this.liveRows.put(this.table, key, row);
        out.push(copyRow(row));
      }
    }
    return this.single ? out[0]! : out;
  }

  async onConflictDoUpdate(set: Set): Promise<Row | (Row | null)[]> {
    const out: Row[] = [];
    const sameEitherWay = !Array.isArray(this.values) && setsOwnValues(this.table, this.values, set);
    for (const row of this.rows) {
      const key = keyOf(this.table, row);
      if (sameEitherWay && !this.liveRows.known(this.table, key)) {
        this.liveRows.writeUnread(this.table, key, row);
        out.push(copyRow(row));
        continue;
      }
      const existing = await rowAt(this.liveRows, this.table, key, row);
      const next = existing === null ? row : apply(this.table, existing, set);
      this.liveRows.put(this.table, key, next);
      out.push(copyRow(next));
    }
    return this.single ? out[0]! : out;
  }

  protected async plain(): Promise<Row | Row[]> {
    const out: Row[] = [];
    for (const row of this.rows) {
      const key = keyOf(this.table, row);
      // A key the store knows has a row is refused now, as Ponder's flush would refuse it; one it does not know (an
      // evicted table, not read) is inserted, and the database refuses a duplicate at the COPY.
      if (!this.liveRows.add(this.table, key, row))
        throw new Error(`Unique constraint failed: ${getTableName(this.table)} ${key.replaceAll("\u0000", " ")}`);
      out.push(copyRow(row));
    }
    return this.single ? out[0]! : out;
  }
}

/**
 * Whether an upsert leaves the same row whether or not its key has one, so that it needs no read: `set` gives every
 * non-key column a value, the very one the insert gives it, and changes no key column.
 */
function setsOwnValues(table: PgTable, values: Row, set: Set): boolean {
  if (typeof set === "function") return false;
  for (const js in set) if (set[js] !== undefined && !Object.is(set[js], values[js])) return false;
  const { columns, keyNames } = shapeOf(table);
  for (const [js] of columns) if (!keyNames.has(js) && set[js] === undefined) return false;
  return true;
}

/** `update(table, key).set(…)`: the set applied to the row as it stands; no row fails. */
class LiveUpdate {
  constructor(
    private readonly liveRows: LiveRows,
    private readonly table: PgTable,
    private readonly key: Row,
  ) {}

  async set(set: Set): Promise<Row> {
    const key = keyOf(this.table, this.key);
    const existing = await rowAt(this.liveRows, this.table, key, this.key);
    if (existing === null) throw notFound(this.table);
    const next = apply(this.table, existing, set);
    this.liveRows.put(this.table, key, next);
    return copyRow(next);
  }
}
