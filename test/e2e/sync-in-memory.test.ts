import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diffDumps, dumpPglite, summarizeDump, type CanonicalDump } from "../reliability/support/canonical-dump";
import { startDevnetWithLabels, type DevnetWithLabels } from "../support/devnet-fixture";
import { indexerOptionsFor, settledStatus, startIndexer } from "../support/indexer-harness";

/*
 * A devnet chain (RPC cache disabled) hands its backfill data from the fetch to the event builder in memory instead
 * of writing it to ponder_sync and reading it back (ponder patch, sync-store/fresh.js). The index must be the same,
 * row for row, as the one Ponder's own SQL path builds (NAMEINDEX_SYNC_IN_MEMORY=false) from the same three-chain
 * devnet. Its ~15,000 logs over 47 blocks put more logs in a fetched range (25 blocks or more) than one read's row
 * limit (~3,000 with three chains) allows, so reads stop at a block boundary and resume, as at scale
 * (test/lib/sync-in-memory.test.ts checks that rule on its own).
 */

const PLUGINS = ["subgraph", "basenames", "lineanames", "threedns", "protocol-acceleration", "registrars", "tokenscope"];

interface Run {
  dump: CanonicalDump;
  sync: Record<"blocks" | "transactions" | "logs", number>;
}

async function indexOnce(env: DevnetWithLabels, extraEnv: Record<string, string>): Promise<Run> {
  const indexer = await startIndexer(indexerOptionsFor(env, { plugins: PLUGINS, database: "pglite", extraEnv }));
  try {
    // Omnichain ordering settles the chains' last blocks after /ready.
    const status = await settledStatus<Record<string, unknown>>(indexer, 8_000, 120_000);
    expect(Object.keys(status).length).toBe(3);
    // Stops the process only: its PGlite folder is read before `stop()` removes it.
    await indexer.process.stop();
    const dump = await dumpPglite(indexer.pgliteDirectory!, indexer.schema);
    const { PGlite } = await import("@electric-sql/pglite");
    const db = new PGlite(indexer.pgliteDirectory!);
    try {
      const count = async (table: string) =>
        Number((await db.query<{ n: number }>(`select count(*)::int as n from ponder_sync.${table}`)).rows[0]!.n);
      return { dump, sync: { blocks: await count("blocks"), transactions: await count("transactions"), logs: await count("logs") } };
    } finally {
      await db.close();
    }
  } finally {
    await indexer.stop();
  }
}

describe("backfill data through memory (devnet chains)", () => {
  let env: DevnetWithLabels;
  let memory: Run;
  let sql: Run;

  beforeAll(async () => {
    env = await startDevnetWithLabels({ seed: 11, names: 1200 });
    memory = await indexOnce(env, {});
    sql = await indexOnce(env, { NAMEINDEX_SYNC_IN_MEMORY: "false" });
  }, 600_000);

  afterAll(async () => {
    await env?.stop();
  });

  it("builds the same index, row for row, as Ponder's SQL path", () => {
    console.log(`[sync-in-memory] memory: ${summarizeDump(memory.dump)}; ponder_sync ${JSON.stringify(memory.sync)}`);
    console.log(`[sync-in-memory] SQL path: ponder_sync ${JSON.stringify(sql.sync)}`);
    expect(memory.dump.domain!.rows).toBeGreaterThan(1200);
    expect(memory.dump.registration!.rows).toBeGreaterThan(500);
    expect(diffDumps(sql.dump, memory.dump)).toEqual([]);
  });

  it("writes the blocks to ponder_sync but neither the logs nor the transactions; the SQL path writes all three", () => {
    expect(memory.sync.blocks).toBeGreaterThan(0);
    expect(memory.sync.logs).toBe(0);
    expect(memory.sync.transactions).toBe(0);
    expect(sql.sync.blocks).toBe(memory.sync.blocks);
    expect(sql.sync.logs).toBeGreaterThan(5000);
    expect(sql.sync.transactions).toBeGreaterThan(1000);
  });
});
