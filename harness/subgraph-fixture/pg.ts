import { getTableColumns } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { getTableConfig } from "drizzle-orm/pg-core";
import pg from "pg";
import type { Rows } from "./fixture";
import { SEED_LIST_COUNTS_SQL } from "./list-recount";
import { SCHEMA_TABLES as TABLES, tablesDdl } from "./schema-ddl";

/*
 * A throwaway PostgreSQL schema holding our tables, created from the drizzle definitions in ponder.schema.ts (the
 * same columns and indexes Ponder creates), for testing and benchmarking /subgraph without the indexer.
 */

export const PG_URL = process.env.SUBGRAPH_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export interface TestDatabase {
  schemaName: string;
  pool: pg.Pool;
  db: ReturnType<typeof drizzle>;
  /** Executed statements, counted by the db wrapper handed to /subgraph. */
  counter: { statements: number };
  insert(rows: Rows): Promise<void>;
  drop(): Promise<void>;
}

export async function createTestDatabase(prefix = "sg_test"): Promise<TestDatabase> {
  const schemaName = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schemaName}"`);
  await admin.query(`SET search_path TO "${schemaName}"`);
  for (const stmt of tablesDdl()) await admin.query(stmt);
  await admin.end();

  const pool = new pg.Pool({ connectionString: PG_URL, options: `-c search_path="${schemaName}"`, max: 8 });
  const db = drizzle(pool);
  const counter = { statements: 0 };

  return {
    schemaName,
    pool,
    db,
    counter,
    async insert(rows: Rows) {
      for (const [tableName, list] of Object.entries(rows)) {
        if (list.length === 0) continue;
        const table = TABLES.find((t) => getTableConfig(t).name === tableName);
        if (!table) throw new Error(`no table ${tableName}`);
        const colList = Object.entries(getTableColumns(table)).map(([key, c]) => ({
          key,
          name: c.name,
          bytes: c.getSQLType() === "bytea",
        }));
        const per = Math.floor(30_000 / colList.length);
        for (let i = 0; i < list.length; i += per) {
          const chunk = list.slice(i, i + per);
          const params: unknown[] = [];
          const tuples = chunk.map((row) => {
            const ph = colList.map((c) => {
              const v = row[c.key];
              params.push(
                v === undefined
                  ? null
                  : typeof v === "bigint"
                    ? v.toString()
                    : Array.isArray(v)
                      ? v.map(String)
                      : c.bytes && typeof v === "string"
                        ? Buffer.from(v.slice(2), "hex") // a hexBytes column's value, as the indexer stores it
                        : v,
              );
              return `$${params.length}`;
            });
            return `(${ph.join(", ")})`;
          });
          await pool.query(
            `INSERT INTO "${tableName}" (${colList.map((c) => `"${c.name}"`).join(", ")}) VALUES ${tuples.join(", ")}`,
            params,
          );
        }
      }
      // What the indexer would keep for the Omnigraph's totalCount of unfiltered lists.
      for (const statement of SEED_LIST_COUNTS_SQL) await pool.query(statement);
      await pool.query("ANALYZE");
    },
    async drop() {
      await pool.end();
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS "${schemaName}" CASCADE`);
      await c.end();
    },
  };
}

/** A drizzle handle that counts the statements /subgraph runs through it. */
export function countingDb(t: TestDatabase) {
  return {
    execute: (q: Parameters<TestDatabase["db"]["execute"]>[0]) => {
      t.counter.statements++;
      return t.db.execute(q);
    },
  };
}
