import { readFileSync } from "node:fs";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { indexerOptionsFor, type RunningIndexer, startIndexer } from "../../harness/indexer-harness";
import { DEFAULT_PLUGIN_NAMES } from "../../src/plugins/names";

/*
 * A mainnet backfill cannot keep its rows in Ponder's row cache (PONDER_CACHE_BYTES): every big table is evicted,
 * and each batch's rows are predicted and prefetched, or read one at a time (patch 021 and
 * src/plugins/shared/row-key-derivations.ts teach the prediction our row keys). Whatever the cache does, the index must be the
 * same: all seven plugins on one devnet, once with the default cache and once with a 1 MiB cache that evicts every
 * table, must write identical rows to every table. The second run also syncs in intervals of ~20 logs
 * (PONDER_SYNC_INTERVAL_MAX_LOGS, patch 024; 25,000 by default, which this small devnet never reaches), so the same
 * rows also show that cutting the sync's intervals by their logs loses nothing. Both run with the live tables on
 * Ponder's store (NAMEINDEX_WRITE_BEHIND_LIVE=false, its setting for operators who turn the write-behind store's live
 * tables off): with them on, the backfill never reads through Ponder's row cache (the write-behind store's own
 * eviction and prefetch are test/e2e/write-behind.system.test.ts's 0-byte bound).
 */

/** Ponder's row cache serves the backfill only with the write-behind store's live tables off. */
const PONDER_ROW_CACHE = { NAMEINDEX_WRITE_BEHIND_LIVE: "false" };

let env: DevnetWithLabels;
let full: RunningIndexer;
let evicting: RunningIndexer;

beforeAll(async () => {
  env = await startDevnetWithLabels({ seed: 21, names: 300 });
  // Trace logs name each sync interval's range (see syncIntervalRanges).
  full = await startIndexer(
    indexerOptionsFor(env, {
      plugins: [...DEFAULT_PLUGIN_NAMES],
      database: "postgres",
      extraEnv: { ...PONDER_ROW_CACHE, PONDER_LOG_LEVEL: "trace" },
    }),
  );
  evicting = await startIndexer(
    indexerOptionsFor(env, {
      plugins: [...DEFAULT_PLUGIN_NAMES],
      database: "postgres",
      extraEnv: {
        ...PONDER_ROW_CACHE,
        PONDER_CACHE_BYTES: String(1024 * 1024),
        PONDER_SYNC_INTERVAL_MAX_LOGS: "20",
        PONDER_LOG_LEVEL: "trace",
      },
    }),
  );
  await Promise.all([full.process.ready(), evicting.process.ready()]);
}, 600_000);

afterAll(async () => {
  await Promise.all([full?.stop(), evicting?.stop()]);
  await env?.stop();
});

/** Every table of the indexer's schema (Ponder's own `_ponder_*` and `_reorg__*` tables aside), each row as JSON, in order. */
async function dumpTables(indexer: RunningIndexer): Promise<Map<string, string[]>> {
  const client = new pg.Client({ connectionString: indexer.env.DATABASE_URL });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = $1 AND table_type = 'BASE TABLE' AND table_name NOT LIKE '\\_%' ORDER BY 1`,
      [indexer.schema],
    );
    const dump = new Map<string, string[]>();
    for (const { name } of tables) {
      const { rows } = await client.query<{ row: string }>(
        `SELECT to_jsonb(t)::text AS row FROM "${indexer.schema}"."${name}" t`,
      );
      dump.set(name, rows.map((r) => r.row).sort());
    }
    return dump;
  } finally {
    await client.end();
  }
}

/** Ponder's count of the handlers' row lookups, by how the cache answered them. */
async function lookups(indexer: RunningIndexer): Promise<Record<string, number>> {
  const text = await (await fetch(`${indexer.url}/metrics`)).text();
  const counts: Record<string, number> = {};
  for (const m of text.matchAll(/^ponder_indexing_cache_requests_total\{[^}]*type="(\w+)"[^}]*\} (\S+)$/gm)) {
    counts[m[1]!] = (counts[m[1]!] ?? 0) + Number(m[2]);
  }
  return counts;
}

/** The block ranges Ponder chose for its historical sync's next interval (its trace log), in order. */
function syncIntervalRanges(indexer: RunningIndexer): number[] {
  const log = readFileSync(indexer.logFile, "utf8");
  return [...log.matchAll(/Updated block range estimate for fetching backfill JSON-RPC data.* range=(\d+)/g)].map((m) =>
    Number(m[1]),
  );
}

describe("an evicting row cache (PONDER_CACHE_BYTES=1 MiB) and a sync in intervals of ~20 logs", () => {
  it("cuts the sync's intervals by their logs", () => {
    // Ponder's estimate grows from one block (1 -> 2 -> 3 ...) and never comes back to one; at ~20 logs per interval,
    // an interval of scenario blocks (hundreds of logs each) is followed by a single block.
    const bounded = syncIntervalRanges(evicting);
    const unbounded = syncIntervalRanges(full);
    const ranges = `ranges at ~20 logs: ${bounded.join(", ")}; by default: ${unbounded.join(", ")}`;
    expect(unbounded.length, ranges).toBeGreaterThan(3);
    expect(
      unbounded.filter((range) => range === 1),
      ranges,
    ).toEqual([]);
    expect(bounded.filter((range) => range === 1).length, ranges).toBeGreaterThan(2);
  });

  it("evicts the tables, prefetches rows and still reads some one at a time", async () => {
    const counts = await lookups(evicting);
    expect(counts.hit ?? 0, JSON.stringify(counts)).toBeGreaterThan(0);
    expect(counts.prefetch ?? 0, JSON.stringify(counts)).toBeGreaterThan(0);
    expect(counts.miss ?? 0, JSON.stringify(counts)).toBeGreaterThan(0);
    // The default cache holds every row of this small index: nothing is read from the database.
    expect((await lookups(full)).miss ?? 0).toBe(0);
  });

  it("writes the same rows to every table as the default cache", async () => {
    const [expected, actual] = await Promise.all([dumpTables(full), dumpTables(evicting)]);
    expect([...actual.keys()]).toEqual([...expected.keys()]);
    expect(expected.get("domain")!.length).toBeGreaterThan(300);
    for (const [table, rows] of expected) {
      expect(actual.get(table)!.length, `${table}: row count`).toBe(rows.length);
      expect(actual.get(table), table).toEqual(rows);
    }
  });
});
