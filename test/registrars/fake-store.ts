import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";

/*
 * An in-memory stand-in for Ponder's indexing store (`context.db`): insert/values with onConflictDoNothing or
 * onConflictDoUpdate, find by id, update by id. Like Ponder's cache, `find` returns the stored row itself and
 * `update` changes it in place, so handlers that read a row and then update it are tested against that behavior.
 */

type Row = Record<string, unknown>;

export class FakeStore {
  readonly tables = new Map<string, Map<string, Row>>();

  rows(table: PgTable): Row[] {
    return [...this.table(table).values()];
  }

  private table(table: PgTable): Map<string, Row> {
    const name = getTableConfig(table).name;
    let t = this.tables.get(name);
    if (!t) this.tables.set(name, (t = new Map()));
    return t;
  }

  insert(table: PgTable) {
    const rows = this.table(table);
    const withDefaults = (v: Row): Row => {
      const out: Row = {};
      for (const c of getTableConfig(table).columns) {
        const key = Object.entries(table).find(([, col]) => col === c)?.[0] ?? c.name;
        out[key] = v[key] ?? (c.hasDefault ? c.default : null);
      }
      return out;
    };
    return {
      values: (v: Row) => {
        const id = String(v.id);
        const run = (onConflict: (existing: Row) => void) => {
          const existing = rows.get(id);
          if (existing) onConflict(existing);
          else rows.set(id, withDefaults(v));
        };
        let mode: "error" | "nothing" | { set: Row | ((r: Row) => Row) } = "error";
        const thenable = {
          onConflictDoNothing: () => {
            mode = "nothing";
            return thenable;
          },
          onConflictDoUpdate: (set: Row | ((r: Row) => Row)) => {
            mode = { set };
            return thenable;
          },
          then: (resolve: (v: unknown) => void, reject: (e: unknown) => void) => {
            try {
              run((existing) => {
                if (mode === "error") throw new Error(`unique constraint: ${getTableConfig(table).name} ${id}`);
                if (mode === "nothing") return;
                Object.assign(existing, typeof mode.set === "function" ? mode.set(existing) : mode.set);
              });
              resolve(undefined);
            } catch (error) {
              reject(error);
            }
          },
        };
        return thenable;
      },
    };
  }

  async find(table: PgTable, key: { id: string }): Promise<Row | null> {
    return this.table(table).get(key.id) ?? null;
  }

  update(table: PgTable, key: { id: string }) {
    return {
      set: async (set: Row | ((r: Row) => Row)) => {
        const row = this.table(table).get(key.id);
        if (!row) throw new Error(`no ${getTableConfig(table).name} row ${key.id}`);
        Object.assign(row, typeof set === "function" ? set(row) : set);
        return row;
      },
    };
  }
}
