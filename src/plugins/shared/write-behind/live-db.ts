import { getTableName } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { LiveRows } from "./live-rows";
import { completeRow, copyRow, keyColumns, keyOf, type Row, updatedRow } from "./rows";

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

export const liveDbOf = (liveRows: LiveRows) => {
  const current = (table: PgTable, key: Row) => liveRows.get(table, keyOf(table, key), key);
  return {
    async find(table: PgTable, key: Row): Promise<Row | null> {
      const row = await current(table, key);
      return row === null ? null : copyRow(row);
    },

    insert(table: PgTable) {
      return {
        values(values: Row | Row[]) {
          const single = !Array.isArray(values);
          // completeRow builds a new row, and new arrays and JSON values in it: nothing of the caller's is held.
          const rows = (single ? [values] : values).map((v) => completeRow(table, v));
          const each = async (write: (row: Row, key: string, existing: Row | null) => Row | null) => {
            const out: (Row | null)[] = [];
            for (const row of rows) {
              const key = keyOf(table, row);
              out.push(write(row, key, await current(table, row)));
            }
            return single ? out[0]! : out;
          };
          const plain = async () => {
            const out: Row[] = [];
            for (const row of rows) {
              const key = keyOf(table, row);
              // A key the store knows has a row is refused now, as Ponder's flush would refuse it; one it does not
              // know (an evicted table, not read) is inserted, and the database refuses a duplicate at the COPY.
              if (liveRows.known(table, key) && (await current(table, row)) !== null)
                throw new Error(`Unique constraint failed: ${getTableName(table)} ${key.replaceAll("\u0000", " ")}`);
              liveRows.put(table, key, row);
              out.push(copyRow(row));
            }
            return single ? out[0]! : out;
          };
          let ran: Promise<unknown> | undefined;
          const run = () => (ran ??= plain());
          return {
            onConflictDoNothing: () =>
              each((row, key, existing) => {
                if (existing !== null) return null;
                liveRows.put(table, key, row);
                return copyRow(row);
              }),
            onConflictDoUpdate: (set: Set) =>
              each((row, key, existing) => {
                const next = existing === null ? row : apply(table, existing, set);
                liveRows.put(table, key, next);
                return copyRow(next);
              }),
            // biome-ignore lint/suspicious/noThenProperty: Ponder's insert is a thenable, and so is this one.
            then: (onFulfilled?: (v: unknown) => unknown, onRejected?: (e: unknown) => unknown) =>
              run().then(onFulfilled, onRejected),
            catch: (onRejected?: (e: unknown) => unknown) => run().catch(onRejected),
            finally: (onFinally?: () => void) => run().finally(onFinally),
          };
        },
      };
    },

    update(table: PgTable, key: Row) {
      return {
        async set(set: Set): Promise<Row> {
          const existing = await current(table, key);
          if (existing === null) throw notFound(table);
          const next = apply(table, existing, set);
          liveRows.put(table, keyOf(table, key), next);
          return copyRow(next);
        },
      };
    },

    async delete(table: PgTable, key: Row): Promise<boolean> {
      const existing = await current(table, key);
      if (existing === null) return false;
      liveRows.put(table, keyOf(table, key), null, keyColumns(table, key));
      return true;
    },
  };
};
