import { getTableColumns, getTableName, type Table } from "drizzle-orm";
import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import { HISTORY_TABLE_NAMES } from "../../src/lib/entity-history/tables";

type Row = Record<string, unknown>;
type Values = Row | ((row: Row) => Row);

/**
 * How the store hands out rows. "views" is Ponder 0.16's: `find`, `insert`, `update` and `update().set`'s callback
 * argument give a copy-on-write proxy of the cached row (Ponder's `copyOnWrite`, utils/copy), which reads
 * through to that row until the caller writes to it or reads an object field, so it shows the store's later writes to
 * the same row. "copies" is Ponder 0.17's: each is a copy of the row as it was then.
 */
export type RowsHandedOut = "views" | "copies";

/**
 * An in-memory stand-in for Ponder's `context.db` (find / insert…onConflict / update…set / delete), enough to run the
 * shared handler logic in unit tests. Rows get the schema's column defaults (or null) like Ponder's store, and are
 * updated in place as Ponder's cache does.
 */
export class FakeStore {
  readonly tables = new Map<string, Map<string, Row>>();

  constructor(readonly handsOut: RowsHandedOut = "views") {}

  /** A row as the store hands it out. */
  private out(row: Row): Row {
    if (this.handsOut === "copies") return structuredClone(row);
    let copied: Row | undefined;
    return new Proxy(row, {
      get(target, prop, receiver) {
        const value = Reflect.get(copied ?? target, prop, receiver);
        if (typeof value !== "object" || value === null || copied !== undefined) return value;
        copied = structuredClone(target);
        return Reflect.get(copied, prop, receiver);
      },
      set(target, prop, value) {
        copied ??= structuredClone(target);
        return Reflect.set(copied, prop, value);
      },
      deleteProperty(target, prop) {
        copied ??= structuredClone(target);
        return Reflect.deleteProperty(copied, prop);
      },
      ownKeys: (target) => Reflect.ownKeys(copied ?? target),
      getOwnPropertyDescriptor: (target, prop) => Reflect.getOwnPropertyDescriptor(copied ?? target, prop),
      has: (target, prop) => Reflect.has(copied ?? target, prop),
    });
  }

  rows(table: Table): Map<string, Row> {
    const name = getTableName(table);
    if (!this.tables.has(name)) this.tables.set(name, new Map());
    return this.tables.get(name)!;
  }

  get(table: Table, id: string): Row | undefined {
    return this.rows(table).get(id);
  }

  /** A row's key: its `id`, or its composite primary key's values (`indexed_log`: chain, block, log index) joined. */
  private keyOf(table: Table, values: Row): string {
    const [pk] = getTableConfig(table as PgTable).primaryKeys;
    if (!pk && "id" in getTableColumns(table)) return String(values.id);
    if (!pk) throw new Error(`${getTableName(table)} has neither an id nor a primary key`);
    const keys = Object.entries(getTableColumns(table));
    return pk.columns.map((c) => String(values[keys.find(([, col]) => col.name === c.name)![0]])).join("-");
  }

  private withDefaults(table: Table, values: Row): Row {
    const row: Row = {};
    for (const [key, column] of Object.entries(getTableColumns(table))) {
      const c = column as { hasDefault?: boolean; default?: unknown };
      row[key] = c.hasDefault && c.default !== undefined ? c.default : null;
    }
    for (const [k, v] of Object.entries(values)) if (v !== undefined) row[k] = v;
    return row;
  }

  private apply(row: Row, values: Values): Row {
    const changes = structuredClone(typeof values === "function" ? values(this.out(row)) : values);
    for (const [k, v] of Object.entries(changes)) if (v !== undefined) row[k] = v;
    return this.out(row);
  }

  readonly db = {
    find: async (table: Table, key: { id: string }) => {
      const row = this.rows(table).get(key.id);
      return row ? this.out(row) : null;
    },
    insert: (table: Table) => ({
      values: (values: Row) => {
        const rows = this.rows(table);
        const run = (onConflict: "throw" | "nothing" | Values) => {
          const key = this.keyOf(table, values);
          const existing = rows.get(key);
          if (existing) {
            if (onConflict === "throw") throw new Error(`duplicate ${getTableName(table)} ${key}`);
            if (onConflict === "nothing") return null;
            return this.apply(existing, onConflict);
          }
          const row = this.withDefaults(table, structuredClone(values));
          rows.set(key, row);
          return this.out(row);
        };
        return {
          then: (resolve: (v: unknown) => unknown, reject: (e: unknown) => unknown) => {
            try {
              return Promise.resolve(resolve(run("throw")));
            } catch (error) {
              return Promise.resolve(reject(error));
            }
          },
          onConflictDoNothing: async () => run("nothing"),
          onConflictDoUpdate: async (update: Values) => run(update),
        };
      },
    }),
    update: (table: Table, key: { id: string }) => ({
      set: async (values: Values) => {
        const row = this.rows(table).get(key.id);
        if (!row) throw new Error(`no ${getTableName(table)} ${key.id} to update`);
        return this.apply(row, values);
      },
    }),
    delete: async (table: Table, key: { id: string }) => this.rows(table).delete(key.id),
    /**
     * Ponder's `db.sql`, as far as a handler run reads it: the entity history writer's lookup of the versions an earlier
     * process wrote in the block it resumes in (src/lib/entity-history/writer.ts). A FakeStore is one process's store,
     * so there are none; any other query is refused.
     */
    sql: {
      select: () => ({
        from: (table: Table) => {
          if (!HISTORY_TABLE_NAMES.includes(getTableName(table))) {
            throw new Error(`FakeStore answers no SQL on ${getTableName(table)}`);
          }
          return { where: () => ({ limit: async () => [] }) };
        },
      }),
    },
  };
}
