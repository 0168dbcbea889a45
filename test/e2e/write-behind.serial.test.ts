import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { indexerOptionsFor, type RunningIndexer, startIndexer } from "../../harness/indexer-harness";
import { digestTable } from "../../snapshot/digest";
import type { Queryable } from "../../snapshot/queryable";
import { DEFAULT_PLUGIN_NAMES } from "../../src/plugins/names";

/*
 * The backfill's write-behind store (src/plugins/shared/write-behind/) writes the insert-only rows with one COPY per
 * table and batch instead of Ponder's store: the index must be the same row for row. One devnet, every default plugin
 * and ENSv2, indexed four times: through Ponder's store (NAMEINDEX_WRITE_BEHIND=false) and through the write-behind
 * store, on PostgreSQL and on PGlite, the PGlite write-behind run with a 1 MiB row cache that evicts every table (so
 * Ponder's reads of the keys the store checks miss). Every table's digest (the snapshot's: rows in primary-key order)
 * must be equal, and the write-behind runs must have written their rows by COPY (the store's metric).
 */

const PLUGINS = [...DEFAULT_PLUGIN_NAMES, "ensv2"];

let env: DevnetWithLabels;
const runs: { name: string; indexer: RunningIndexer; database: "postgres" | "pglite" }[] = [];
const digests = new Map<string, Map<string, string>>();
const copiedRows = new Map<string, number>();

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
  await start("postgres, write-behind", "postgres", { NAMEINDEX_WRITE_BEHIND: "true" });
  await start("pglite, write-behind, 1 MiB row cache", "pglite", {
    NAMEINDEX_WRITE_BEHIND: "true",
    PONDER_CACHE_BYTES: String(1024 * 1024),
  });
  for (const run of runs) {
    await run.indexer.process.ready();
    copiedRows.set(run.name, await metric(run.indexer, "nameindex_write_behind_rows_total"));
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
  it("writes the backfill's insert-only rows by COPY, and only in the runs that use it", () => {
    for (const [name, rows] of copiedRows) {
      console.log(`[write-behind] ${name}: ${rows} rows by COPY`);
      if (name.includes("Ponder's store")) expect(rows, name).toBe(0);
      else expect(rows, name).toBeGreaterThan(1000);
    }
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
