import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLUGIN_NAMES } from "../../src/plugins/names";
import { startDevnetWithLabels, type DevnetWithLabels } from "../support/devnet-fixture";
import { indexerOptionsFor, startIndexer, type RunningIndexer } from "../support/indexer-harness";

/*
 * A mainnet backfill cannot keep its rows in Ponder's row cache (PONDER_CACHE_BYTES): every big table is evicted,
 * and each batch's rows are predicted and prefetched, or read one at a time (patch 021 and
 * src/lib/row-key-derivations.ts teach the prediction our row keys). Whatever the cache does, the index must be the
 * same: all seven plugins on one devnet, once with the default cache and once with a 1 MiB cache that evicts every
 * table, must write identical rows to every table.
 */

let env: DevnetWithLabels;
let full: RunningIndexer;
let evicting: RunningIndexer;

beforeAll(async () => {
  env = await startDevnetWithLabels({ seed: 21, names: 300 });
  full = await startIndexer(indexerOptionsFor(env, { plugins: [...PLUGIN_NAMES], database: "postgres" }));
  evicting = await startIndexer(
    indexerOptionsFor(env, { plugins: [...PLUGIN_NAMES], database: "postgres", extraEnv: { PONDER_CACHE_BYTES: String(1024 * 1024) } }),
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
      const { rows } = await client.query<{ row: string }>(`SELECT to_jsonb(t)::text AS row FROM "${indexer.schema}"."${name}" t`);
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

describe("an evicting row cache (PONDER_CACHE_BYTES=1 MiB)", () => {
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
