import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { indexerOptionsFor, type RunningIndexer, startIndexer } from "../../harness/indexer-harness";
import { digestTable } from "../../snapshot/digest";
import type { Queryable } from "../../snapshot/queryable";
import { DEFAULT_PLUGIN_NAMES } from "../../src/plugins/names";

/*
 * The backfill's write-behind store (src/plugins/shared/write-behind/) reads and writes every table during the
 * backfill instead of Ponder's store, and writes each batch's rows in bulk: the index must be the same row for row.
 * One devnet, every default plugin and ENSv2, indexed four times: through Ponder's store (NAMEINDEX_WRITE_BEHIND=false)
 * and through the write-behind store on PostgreSQL, then on PGlite and on PostgreSQL with a bound of 0 bytes that
 * evicts every live table at each batch (its reads go to the database, prefetched from the events' keys) and a 1 MiB
 * row cache. Every table's digest (the snapshot's: rows in primary-key order) must be equal, and the write-behind runs
 * must have written their rows themselves (the store's metrics).
 */

const PLUGINS = [...DEFAULT_PLUGIN_NAMES, "ensv2"];

let env: DevnetWithLabels;
const runs: { name: string; indexer: RunningIndexer; database: "postgres" | "pglite" }[] = [];
const digests = new Map<string, Map<string, string>>();
const copiedRows = new Map<string, number>();
const evictions = new Map<string, number>();
const pipelined = new Map<string, number>();
/** The one-by-one reads: the total, and the samples by handler and table. */
const misses = new Map<string, { total: number; byRead: { handler: string; table: string; reads: number }[] }>();

/** Every table of the index schema but Ponder's own (`_ponder_*`, `_reorg__*`): name → `<rows>:<sha256>`. */
async function digestIndex(db: Queryable, schema: string): Promise<Map<string, string>> {
  const { rows } = await db.query<{ name: string }>(
    `select table_name as name from information_schema.tables
      where table_schema = $1 and table_type = 'BASE TABLE' and table_name not like '\\_%' order by 1`,
    [schema],
  );
  const out = new Map<string, string>();
  await db.query("begin");
  try {
    for (const { name } of rows) {
      const d = await digestTable(db, schema, name);
      out.set(name, `${d.rows}:${d.sha256}`);
    }
  } finally {
    await db.query("commit");
  }
  return out;
}

async function missesOf(indexer: RunningIndexer) {
  const text = await (await fetch(`${indexer.url}/metrics`)).text();
  const byRead = [...text.matchAll(/^nameindex_write_behind_misses_by_read_total\{([^}]*)\} (\S+)$/gm)].map((m) => ({
    handler: /handler="([^"]*)"/.exec(m[1]!)?.[1] ?? "",
    table: /table="([^"]*)"/.exec(m[1]!)?.[1] ?? "",
    reads: Number(m[2]),
  }));
  // The total from the same scrape as the samples, so that both count the same reads.
  const total = Number(/^nameindex_write_behind_misses_total (\S+)$/m.exec(text)?.[1] ?? Number.NaN);
  return { total, byRead };
}

async function metric(indexer: RunningIndexer, name: string): Promise<number> {
  const text = await (await fetch(`${indexer.url}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(" ")[1]) : 0;
}

beforeAll(async () => {
  env = await startDevnetWithLabels({ seed: 67, names: 120 });
  const start = (name: string, database: "postgres" | "pglite", extraEnv: Record<string, string>) =>
    startIndexer(indexerOptionsFor(env, { plugins: PLUGINS, database, extraEnv })).then((indexer) =>
      runs.push({ name, indexer, database }),
    );
  await start("postgres, Ponder's store", "postgres", { NAMEINDEX_WRITE_BEHIND: "false" });
  const live = { NAMEINDEX_WRITE_BEHIND: "true" };
  const evicting = { ...live, NAMEINDEX_WRITE_BEHIND_BYTES: "0", PONDER_CACHE_BYTES: String(1024 * 1024) };
  await start("postgres, write-behind", "postgres", live);
  await start("pglite, write-behind, everything evicted", "pglite", evicting);
  await start("postgres, write-behind, everything evicted", "postgres", evicting);
  for (const run of runs) {
    await run.indexer.process.ready();
    copiedRows.set(run.name, await metric(run.indexer, "nameindex_write_behind_rows_total"));
    evictions.set(run.name, await metric(run.indexer, "nameindex_write_behind_evictions_total"));
    pipelined.set(run.name, await metric(run.indexer, "nameindex_write_behind_pipelined_batches_total"));
    misses.set(run.name, await missesOf(run.indexer));
    if (run.database === "postgres") {
      const client = new pg.Client({ connectionString: run.indexer.env.DATABASE_URL });
      await client.connect();
      try {
        digests.set(run.name, await digestIndex(client, run.indexer.schema));
      } finally {
        await client.end();
      }
    } else {
      await run.indexer.process.stop();
      const db = new PGlite(run.indexer.pgliteDirectory!);
      try {
        digests.set(run.name, await digestIndex(db, run.indexer.schema));
      } finally {
        await db.close();
      }
    }
  }
}, 900_000);

afterAll(async () => {
  for (const run of runs) await run.indexer.stop();
  await env?.stop();
});

describe("the write-behind store", () => {
  it("writes the backfill's rows itself, and only in the runs that use it; the 0-byte bound evicts", () => {
    for (const [name, rows] of copiedRows) {
      console.log(
        `[write-behind] ${name}: ${rows} rows written, ${evictions.get(name)} tables evicted, ` +
          `${pipelined.get(name)} batches written in the next batch's transaction`,
      );
      if (name.includes("Ponder's store")) expect(rows, name).toBe(0);
      else expect(rows, name).toBeGreaterThan(1000);
      expect(evictions.get(name)! > 0, name).toBe(name.includes("evicted"));
      // The pipeline runs on PostgreSQL only (PGlite shares the indexer's thread: nothing to overlap).
      expect(pipelined.get(name)! > 0, name).toBe(name.startsWith("postgres, write-behind"));
    }
  });

  it("counts its reads one by one by the handler that made them and the table read", () => {
    const tables = new Set(digests.get(runs[0]!.name)!.keys());
    for (const [name, { total, byRead }] of misses) {
      console.log(`[write-behind] ${name}: ${total} reads one by one, ${byRead.length} handler and table pairs`);
      expect(
        byRead.reduce((n, r) => n + r.reads, 0),
        name,
      ).toBe(total);
      for (const r of byRead) {
        expect(r.handler, name).toMatch(/^[\w-]+\/.*:\w+/);
        expect(tables.has(r.table), `${name}: ${r.table}`).toBe(true);
      }
    }
    // Everything evicted, the reads nobody predicted go to the database: there are some to count.
    expect(misses.get("pglite, write-behind, everything evicted")!.total).toBeGreaterThan(0);
  });

  it("leaves every table equal, row for row, to Ponder's store on both databases", () => {
    const [reference, ...others] = runs.map((r) => r.name);
    const expected = digests.get(reference!)!;
    expect(expected.size).toBeGreaterThan(40);
    for (const name of others) {
      const actual = digests.get(name)!;
      expect([...actual.keys()], name).toEqual([...expected.keys()]);
      let rows = 0;
      for (const [table, digest] of expected) {
        expect(actual.get(table), `${name}: ${table}`).toBe(digest);
        rows += Number(digest.split(":")[0]);
      }
      console.log(`[write-behind] ${name}: ${expected.size} tables, ${rows} rows, every digest equal to ${reference}`);
    }
  });
});
