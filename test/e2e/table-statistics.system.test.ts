import { readFileSync } from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { indexerOptionsFor, type RunningIndexer, startIndexer, waitFor } from "../../harness/indexer-harness";

/*
 * PGlite runs no autovacuum: `ponder start` must leave its tables with planner statistics once the backfill is done
 * (src/api/server/table-statistics.ts), checked in the PGlite folder itself once the indexer has stopped.
 */

// One devnet for both databases' indexers.
let env: DevnetWithLabels;
beforeAll(async () => {
  env = await startDevnetWithLabels({ seed: 3, names: 20 });
}, 400_000);
afterAll(async () => {
  await env?.stop();
});

/** `ponder start` of the subgraph plugin on `database`, ready; stopped after the describe block that calls it. */
function indexedOn(database: "pglite" | "postgres"): () => RunningIndexer {
  let indexer: RunningIndexer | undefined;
  beforeAll(async () => {
    // Through Ponder's store (no write-behind store): the first test checks Ponder's store-call counters, which the
    // backfill's write-behind store bypasses for the event tables.
    const extraEnv = { NAMEINDEX_WRITE_BEHIND: "false" };
    indexer = await startIndexer(indexerOptionsFor(env, { plugins: ["subgraph"], database, extraEnv }));
    // Rejects as soon as the indexer exits, where polling /ready would wait out its timeout.
    await indexer.process.ready();
  }, 400_000);
  afterAll(async () => {
    await indexer?.stop();
  });
  return () => indexer!;
}

describe("planner statistics after a PGlite backfill", () => {
  const running = indexedOn("pglite");

  it("has pg_class.reltuples and pg_stats for the index's tables", async () => {
    const indexer = running();
    await waitFor(async () => readFileSync(indexer.logFile, "utf8").includes("PGlite: analyzed"), 60_000, "ANALYZE");
    // Ponder's store-call counters (summed until read, by the ponder patch), checked against the rows they made:
    // each event entity (NewOwner, NewResolver, Transfer) is inserted once, as one row.
    const metrics = await (await fetch(`${indexer.url}/metrics`)).text();
    const inserts = (table: string) =>
      Number(
        new RegExp(`^ponder_indexing_store_queries_total\\{table="${table}",method="insert"\\} (\\d+)$`, "m").exec(
          metrics,
        )?.[1],
      );
    const counted = {
      new_owner: inserts("new_owner"),
      new_resolver: inserts("new_resolver"),
      transfer: inserts("transfer"),
    };
    await indexer.process.stop();
    const { PGlite } = await import("@electric-sql/pglite");
    const db = new PGlite(indexer.pgliteDirectory!);
    try {
      const schema = indexer.schema;
      const count = async (table: string) =>
        Number((await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${schema}"."${table}"`)).rows[0]!.n);
      const tuples = async (table: string) =>
        Number(
          (
            await db.query<{ n: number }>(
              `SELECT c.reltuples AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = $1 AND c.relname = $2`,
              [schema, table],
            )
          ).rows[0]!.n,
        );
      // reltuples alone proves little (Ponder's CREATE INDEX after the backfill sets it); pg_stats is ANALYZE's.
      expect(counted.new_owner).toBeGreaterThan(0);
      expect(counted).toEqual({
        new_owner: await count("new_owner"),
        new_resolver: await count("new_resolver"),
        transfer: await count("transfer"),
      });
      for (const table of ["domain", "account", "resolver", "registration"]) {
        expect(await count(table), table).toBeGreaterThan(0);
        expect(await tuples(table), table).toBe(await count(table));
      }
      const columns = (
        await db.query<{ attname: string }>(
          `SELECT attname FROM pg_stats WHERE schemaname = $1 AND tablename = 'domain'`,
          [schema],
        )
      ).rows.map((row) => row.attname);
      const logged = readFileSync(indexer.logFile, "utf8")
        .split("\n")
        .filter((line) => line.includes("PGlite: analyzed"));
      expect(columns, logged.join("\n")).toContain("name");
      expect(columns).toContain("parent_id");
    } finally {
      await db.close();
    }
  });
});

/*
 * On PostgreSQL too: this machine's server runs with autovacuum off (as some managed and test servers do), and even
 * with it on nothing analyzes the tables right after the backfill. Unanalyzed, `domain` by name walked the whole
 * `registration` table for each answer.
 */
describe("planner statistics after a PostgreSQL backfill", () => {
  const running = indexedOn("postgres");

  it("has pg_stats for the index's tables once the backfill is done", async () => {
    const indexer = running();
    await waitFor(
      async () => readFileSync(indexer.logFile, "utf8").includes("PostgreSQL: analyzed"),
      60_000,
      "ANALYZE",
    );
    const client = new pg.Client({ connectionString: indexer.env.DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query<{ tablename: string; attname: string }>(
        "SELECT tablename, attname FROM pg_stats WHERE schemaname = $1 AND tablename = ANY($2)",
        [indexer.schema, ["domain", "registration"]],
      );
      const columns = rows.map((r) => `${r.tablename}.${r.attname}`);
      expect(columns).toContain("domain.name");
      expect(columns).toContain("domain.parent_id");
      expect(columns).toContain("registration.domain_id");
    } finally {
      await client.end();
    }
  });
});
