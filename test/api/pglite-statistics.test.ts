import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keepPgliteAnalyzed } from "../../src/api/pglite-statistics";
import { waitFor } from "../support/indexer-harness";

/* The ANALYZE loop against a PGlite database shaped like the indexer's: Ponder's `_ponder_meta`, two of our tables. */

let pglite: PGlite;
const analyzed: string[][] = [];

const reltuples = async (table: string) =>
  Number((await pglite.query<{ n: number }>(`SELECT reltuples AS n FROM pg_class WHERE oid = 's.${table}'::regclass`)).rows[0]!.n);
const statsRows = async (table: string) =>
  Number((await pglite.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stats WHERE schemaname = 's' AND tablename = '${table}'`)).rows[0]!.n);

beforeAll(async () => {
  pglite = new PGlite();
  await pglite.exec(`
    CREATE SCHEMA s;
    CREATE TABLE s._ponder_meta (key text PRIMARY KEY, value jsonb NOT NULL);
    INSERT INTO s._ponder_meta VALUES ('app', '{"is_ready": 0}');
    CREATE TABLE s.domain (id text PRIMARY KEY, name text);
    CREATE TABLE s.account (id text PRIMARY KEY);
    INSERT INTO s.domain SELECT 'd' || g, 'name' || g || '.eth' FROM generate_series(1, 2000) g;
    INSERT INTO s.account SELECT 'a' || g FROM generate_series(1, 50) g;
  `);
});
afterAll(async () => {
  await pglite.close();
});

describe("keepPgliteAnalyzed", () => {
  it("analyzes nothing during the backfill, every table once it completes, and a table again once it grew", async () => {
    const stop = keepPgliteAnalyzed({
      db: drizzle(pglite),
      schema: "s",
      tables: ["domain", "account"],
      readyPollMs: 20,
      growthPollMs: 20,
      onAnalyze: (tables) => analyzed.push(tables),
    });
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
