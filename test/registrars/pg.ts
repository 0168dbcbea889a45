import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { createDatabase, dropDatabase } from "../../harness/indexer-harness";
import { tablesDdl } from "../../harness/subgraph-fixture/schema-ddl";

/*
 * A throwaway PostgreSQL schema with the tables the registrar-actions and name-tokens routes read, created from the
 * drizzle definitions in ponder.schema.ts (the same column names, types and indexes Ponder creates).
 */

export const PG_URL = process.env.REGISTRARS_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/test";

export interface TestSchema {
  name: string;
  pool: pg.Pool;
  db: ReturnType<typeof drizzle>;
  query<T = Record<string, unknown>>(text: string, values?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

/**
 * `ownDatabase` puts the schema in a database of its own. VACUUM can mark pages all-visible only past every snapshot
 * open in the same database, so a test that asserts index-only plans needs one that other tests' transactions cannot
 * hold back (with a snapshot open elsewhere in `test`, a count of 100k rows is rightly planned as a Seq Scan).
 */
export async function createTestSchema(prefix: string, options: { ownDatabase?: boolean } = {}): Promise<TestSchema> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  const url = options.ownDatabase ? await createDatabase(name, PG_URL) : PG_URL;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA "${name}"`);
    await admin.query(`SET search_path TO "${name}"`);
    for (const stmt of tablesDdl()) await admin.query(stmt);
  } finally {
    await admin.end();
  }
  const pool = new pg.Pool({ connectionString: url, options: `-c search_path="${name}"`, max: 4 });
  return {
    name,
    pool,
    db: drizzle(pool),
    async query<T>(text: string, values?: unknown[]) {
      return (await pool.query(text, values)).rows as T[];
    },
    async drop() {
      if (!options.ownDatabase) await pool.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
      await pool.end();
      if (options.ownDatabase) await dropDatabase(name, PG_URL);
    },
  };
}

/** Inserts rows given with the tables' database column names. */
export async function insertRows(s: TestSchema, table: string, rows: Record<string, unknown>[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const per = Math.floor(30_000 / columns.length);
  for (let i = 0; i < rows.length; i += per) {
    const chunk = rows.slice(i, i + per);
    const values: unknown[] = [];
    const tuples = chunk.map((row) => `(${columns.map((c) => `$${values.push(row[c])}`).join(", ")})`);
    await s.query(
      `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES ${tuples.join(", ")}`,
      values,
    );
  }
}
