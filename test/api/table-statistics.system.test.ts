import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzleNodePg } from "drizzle-orm/node-postgres";
import { drizzle } from "drizzle-orm/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, dropDatabase, LOCAL_POSTGRES_URL, waitFor } from "../../harness/indexer-harness";
import { keepTablesAnalyzed } from "../../src/api/server/table-statistics";

/* The ANALYZE loop against a PGlite database shaped like the indexer's: Ponder's `_ponder_meta`, two of our tables. */

/** Ponder's `_ponder_meta` (backfill not done yet) and two of our tables, in schema `s`. */
const INDEX_SHAPED_TABLES = `
  CREATE SCHEMA s;
  CREATE TABLE s._ponder_meta (key text PRIMARY KEY, value jsonb NOT NULL);
  INSERT INTO s._ponder_meta VALUES ('app', '{"is_ready": 0}');
  CREATE TABLE s.domain (id text PRIMARY KEY, name text);
  CREATE TABLE s.account (id text PRIMARY KEY);
  INSERT INTO s.domain SELECT 'd' || g, 'name' || g || '.eth' FROM generate_series(1, 2000) g;
  INSERT INTO s.account SELECT 'a' || g FROM generate_series(1, 50) g;
`;

/** The loop over INDEX_SHAPED_TABLES, polling fast; each ANALYZE's tables are pushed onto `seen`. */
const analyzeLoop = (
  db: Parameters<typeof keepTablesAnalyzed>[0]["db"],
  database: "pglite" | "postgres",
  seen: string[][],
) =>
  keepTablesAnalyzed({
    db,
    database,
    schema: "s",
    tables: ["domain", "account"],
    readyPollMs: 20,
    growthPollMs: 20,
    onAnalyze: (tables) => seen.push(tables),
  });

let pglite: PGlite;
const analyzed: string[][] = [];

const reltuples = async (table: string) =>
  Number(
    (await pglite.query<{ n: number }>(`SELECT reltuples AS n FROM pg_class WHERE oid = 's.${table}'::regclass`))
      .rows[0]!.n,
  );
const statsRows = async (table: string) =>
  Number(
    (
      await pglite.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stats WHERE schemaname = 's' AND tablename = '${table}'`,
      )
    ).rows[0]!.n,
  );

beforeAll(async () => {
  pglite = new PGlite();
  await pglite.exec(INDEX_SHAPED_TABLES);
});
afterAll(async () => {
  await pglite.close();
});

describe("keepTablesAnalyzed", () => {
  it("analyzes nothing during the backfill, every table once it completes, and a table again once it grew", async () => {
    const stop = analyzeLoop(drizzle(pglite), "pglite", analyzed);
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(analyzed).toEqual([]);
      expect(await reltuples("domain")).toBe(-1);

      await pglite.exec(`UPDATE s._ponder_meta SET value = '{"is_ready": 1}'`);
      await waitFor(async () => analyzed.length > 0, 5_000, "first ANALYZE");
      expect(analyzed[0]).toEqual(["account", "domain"]);
      expect(await reltuples("domain")).toBe(2000);
      expect(await reltuples("account")).toBe(50);
      expect(await statsRows("domain")).toBe(2);

      // A few rows more: not enough to analyze again.
      await pglite.exec(`INSERT INTO s.domain SELECT 'e' || g, 'more' || g || '.eth' FROM generate_series(1, 10) g`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(analyzed).toHaveLength(1);

      // Doubling the table: analyzed again, and only that table.
      await pglite.exec(`INSERT INTO s.domain SELECT 'f' || g, 'grown' || g || '.eth' FROM generate_series(1, 2000) g`);
      await waitFor(async () => analyzed.length > 1, 5_000, "second ANALYZE");
      expect(analyzed[1]).toEqual(["domain"]);
      expect(await reltuples("domain")).toBe(4010);
    } finally {
      stop();
    }
  });
});

/*
 * The same loop on PostgreSQL, in a database of its own, through a read-only session like the API's (ANALYZE is
 * allowed there). This machine's server runs with `autovacuum` off, as some managed and test servers do: the loop
 * must then keep the statistics itself, as on PGlite. Where the server's autovacuum is on, it analyzes once only.
 */
describe("keepTablesAnalyzed on PostgreSQL", () => {
  let database: string | undefined;
  let client: pg.Client | undefined;
  afterAll(async () => {
    await client?.end();
    if (database) await dropDatabase(database);
  });

  it("analyzes every table once the backfill completes, and again as a table grows when autovacuum is off", async () => {
    database = `stats_${Date.now().toString(36)}`;
    client = new pg.Client({ connectionString: await createDatabase(database) });
    await client.connect();
    const q = async <T extends Record<string, unknown>>(text: string) => (await client!.query<T>(text)).rows;
    await q(INDEX_SHAPED_TABLES);
    const [{ on: autovacuum }] = await q<{ on: boolean }>(`SELECT current_setting('autovacuum') = 'on' AS on`);
    const statsRowsOf = async (table: string) =>
      Number(
        (
          await q<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stats WHERE schemaname = 's' AND tablename = '${table}'`,
          )
        )[0]!.n,
      );
    const reader = new pg.Client(clientConfig(database));
    await reader.connect();
    await reader.query("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY");
    const seen: string[][] = [];
    const stop = analyzeLoop(drizzleNodePg(reader), "postgres", seen);
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(seen).toEqual([]);
      expect(await statsRowsOf("domain")).toBe(0);

      await q(`UPDATE s._ponder_meta SET value = '{"is_ready": 1}'`);
      await waitFor(async () => seen.length > 0, 10_000, "first ANALYZE");
      expect(seen[0]).toEqual(["account", "domain"]);
      expect(await statsRowsOf("domain")).toBe(2);

      // The table's pages grow while the INSERT runs, and the loop polls every 20 ms: holding the lock ANALYZE takes
      // makes it wait for the commit, so it counts the new rows (else it may sample mid-insert and see 2,000).
      await q(`
        BEGIN;
        LOCK TABLE s.domain IN SHARE UPDATE EXCLUSIVE MODE;
        INSERT INTO s.domain SELECT 'f' || g, 'grown' || g || '.eth' FROM generate_series(1, 2000) g;
        COMMIT;
      `);
      if (autovacuum) {
        // The server's autovacuum keeps them from here: the loop has stopped.
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(seen).toHaveLength(1);
      } else {
        await waitFor(async () => seen.length > 1, 10_000, "second ANALYZE");
        expect(seen[1]).toEqual(["domain"]);
        const [{ n }] = await q<{ n: number }>(
          `SELECT reltuples::int AS n FROM pg_class WHERE oid = 's.domain'::regclass`,
        );
        expect(n).toBe(4000);
      }
    } finally {
      stop();
      await reader.end();
    }
  });
});

function clientConfig(database: string): pg.ClientConfig {
  return { connectionString: LOCAL_POSTGRES_URL.replace(/\/test$/, `/${database}`) };
}
