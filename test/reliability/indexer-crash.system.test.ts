import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Random } from "../../devnet/src/scenario/random";
import { type CanonicalDump, diffDumps, dumpPglite, dumpPostgres, summarizeDump } from "../../harness/canonical-dump";
import { type DevnetWithLabels, rpc, startDevnetWithLabels } from "../../harness/devnet-fixture";
import {
  indexerOptionsFor,
  type RunningIndexer,
  settledStatus,
  startIndexer,
  waitFor,
} from "../../harness/indexer-harness";
import { DEFAULT_PLUGIN_NAMES } from "../../src/plugins/names";
import { bySize, report } from "./support/scale";

/*
 * Issue #8, crash recovery: SIGKILL `ponder start` at seeded random points of a devnet backfill, restart it on the
 * same database each time, and check the final index equals a clean run's, table by table and row by row.
 */

/** The plugins an operator gets by default (all but the opt-in ENSv2). */
const PLUGINS = [...DEFAULT_PLUGIN_NAMES];
const SEED = 8;
// The CI size must keep the backfill long enough to land a kill inside it: at 150 names a PGlite backfill became one or
// two checkpoints (~2 s) once indexing got faster (session 6), and every kill came after /ready. Two kills after the
// start-up one (targets in the first and the second third of the backfill) still land one mid-backfill, which the
// test requires; each more kill cost a restart and half a minute on a loaded CI machine.
const size = bySize({
  ci: { names: 400, kills: 2, maxDelayMs: 300 },
  full: { names: 3000, kills: 10, maxDelayMs: 1500 },
});

type Status = Record<string, { id: number; block: { number: number } }>;

async function status(indexer: RunningIndexer): Promise<Status | undefined> {
  const res = await fetch(`${indexer.url}/status`).catch(() => undefined);
  return res?.ok ? ((await res.json()) as Status) : undefined;
}

/**
 * How far each chain's checkpoint moves during the backfill: Ponder's backfill target (its "Started backfill
 * indexing … block_range=[a,b]" log line), or the chain's last event block where that comes first (a checkpoint
 * stops at the last block with an event).
 */
function backfillEnds(logFile: string, final: Status): Map<number, number> {
  const names: Record<string, number> = { devnetRoot: 31337, devnetBase: 31338, devnetLinea: 31339 };
  const ends = new Map<number, number>();
  for (const m of readFileSync(logFile, "utf8").matchAll(
    /Started backfill indexing\S* chain=(\w+) block_range=\[\d+,(\d+)\]/g,
  )) {
    const id = names[m[1]!]!;
    const last = Object.values(final).find((c) => c.id === id)?.block.number ?? 0;
    ends.set(id, Math.min(Number(m[2]), last));
  }
  return ends;
}

/** Share of the backfill (blocks over all chains) that Ponder has checkpointed, 0..1. */
function progressOf(s: Status | undefined, ends: Map<number, number>): number {
  if (!s) return 0;
  let done = 0;
  let total = 0;
  for (const chain of Object.values(s)) {
    const end = ends.get(chain.id) ?? 0;
    done += Math.min(chain.block.number, end);
    total += end;
  }
  return total === 0 ? 0 : done / total;
}

/**
 * The clean run is done once it is ready (backfill over) and its checkpoints stopped moving for 5 s
 * (`settledStatus`; the chains make no blocks of their own). Its checkpoints are then the target a crashed run must
 * reach exactly before its index is compared (a target taken too early could fail the run, never pass a wrong index).
 */
async function settle(indexer: RunningIndexer): Promise<Status> {
  let settled: Status | undefined;
  await explain(indexer, async () => {
    settled = await settledStatus<Status>(indexer, 5_000, 180_000);
  });
  return settled!;
}

async function reach(indexer: RunningIndexer, target: Status): Promise<void> {
  await indexer.process.ready();
  await explain(indexer, () =>
    waitFor(
      async () => JSON.stringify(await status(indexer)) === JSON.stringify(target),
      180_000,
      `checkpoints ${JSON.stringify(target)}`,
    ),
  );
}

/** A timeout says where the indexer stood: its last checkpoints and the end of its log. */
async function explain(indexer: RunningIndexer, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    throw new Error(
      `${(error as Error).message}; last /status ${JSON.stringify(await status(indexer))}; log tail:\n${logTail(indexer)}`,
    );
  }
}

/** The end of the indexer's log: the work directory holding it is removed when the test stops the indexer. */
function logTail(indexer: RunningIndexer): string {
  return readFileSync(indexer.logFile, "utf8").split("\n").slice(-40).join("\n");
}

describe("indexer crash recovery (SIGKILL during the backfill)", () => {
  let env: DevnetWithLabels;
  let heads: Map<number, number>;
  let final: Status;
  let ends: Map<number, number>;
  let clean: CanonicalDump;
  let cleanSeconds: number;

  beforeAll(async () => {
    env = await startDevnetWithLabels({ seed: SEED, names: size.names });
    heads = new Map();
    for (const [id, chain] of Object.entries(env.devnet.manifest.chains)) {
      heads.set(Number(id), Number(await rpc<string>(chain.rpcUrl, "eth_blockNumber")));
    }
    const started = Date.now();
    const reference = await startIndexer(options("postgres"));
    try {
      final = await settle(reference);
      cleanSeconds = (Date.now() - started) / 1000;
      ends = backfillEnds(reference.logFile, final);
      clean = await dumpPostgres(reference.env.DATABASE_URL!, reference.schema);
    } finally {
      await reference.stop();
    }
    report(
      "indexer-crash",
      `devnet seed ${SEED}, ${size.names} names, heads ${JSON.stringify(Object.fromEntries(heads))}, backfill ends ` +
        `${JSON.stringify(Object.fromEntries(ends))}, final checkpoints ${JSON.stringify(final)}; clean PostgreSQL run ${cleanSeconds.toFixed(0)} s: ${summarizeDump(clean)}`,
    );
  }, 900_000);

  afterAll(async () => {
    await env?.stop();
  });

  function options(database: "postgres" | "pglite") {
    return indexerOptionsFor(env, { plugins: PLUGINS, database });
  }

  for (const database of ["postgres", "pglite"] as const) {
    it(
      `${database}: a start-up kill and ${size.kills} more, each restarted, end in the clean run's index`,
      async () => {
        const random = new Random(SEED * 100 + (database === "postgres" ? 1 : 2));
        // Targets spread over the backfill (one per equal slice), each with a random delay after it is reached, so
        // the kill lands between checkpoints rather than right after one.
        const targets = Array.from({ length: size.kills }, (_, i) => (i + random.next()) / (size.kills + 1));
        const indexer = await startIndexer(options(database));
        const kills: string[] = [];
        let midBackfill = 0;
        try {
          // First a kill during start-up (the migration that creates the tables, the first batches): on PGlite, before
          // the ponder patch made its transactions real, a kill there left half a migration and the restart failed.
          const startupDelayMs = Math.floor(random.next() * 800);
          await waitFor(
            async () =>
              (existsSync(indexer.logFile) &&
                readFileSync(indexer.logFile, "utf8").includes("Connected to JSON-RPC")) ||
              indexer.process.child.exitCode !== null,
            120_000,
            "start-up",
            20,
          );
          await new Promise((r) => setTimeout(r, startupDelayMs));
          const tablesCreated = readFileSync(indexer.logFile, "utf8").includes("Created database tables");
          await indexer.kill();
          kills.push(`start-up+${startupDelayMs}ms (${tablesCreated ? "after" : "before"} "Created database tables")`);
          report("indexer-crash", `${database}: kill ${kills.length}: ${kills.at(-1)}`);
          await indexer.restart();
          for (const target of targets) {
            const delayMs = Math.floor(random.next() * size.maxDelayMs);
            const startedAt = Date.now();
            await waitFor(
              async () => progressOf(await status(indexer), ends) >= target || indexer.process.child.exitCode !== null,
              600_000,
              `progress ${target}`,
              50,
            );
            if (indexer.process.child.exitCode !== null) {
              throw new Error(
                `ponder exited on its own (code ${indexer.process.child.exitCode}); log tail:\n${logTail(indexer)}`,
              );
            }
            await new Promise((r) => setTimeout(r, delayMs));
            const ready = (await fetch(`${indexer.url}/ready`).catch(() => undefined))?.status === 200;
            const progress = progressOf(await status(indexer), ends);
            await indexer.kill();
            if (!ready) midBackfill += 1;
            kills.push(
              `${(target * 100).toFixed(0)}%+${delayMs}ms→killed at ${(progress * 100).toFixed(0)}%${ready ? " (after ready)" : ""} ${((Date.now() - startedAt) / 1000).toFixed(0)}s`,
            );
            report("indexer-crash", `${database}: kill ${kills.length}: ${kills.at(-1)}`);
            await indexer.restart();
          }
          await reach(indexer, final);
          let crashed: CanonicalDump;
          if (database === "postgres") {
            crashed = await dumpPostgres(indexer.env.DATABASE_URL!, indexer.schema);
          } else {
            await indexer.process.stop();
            crashed = await dumpPglite(indexer.pgliteDirectory!, indexer.schema);
          }
          const differences = diffDumps(clean, crashed);
          report(
            "indexer-crash",
            `${database}: kills [${kills.join("; ")}], ${midBackfill}/${kills.length} mid-backfill; final index ` +
              `${differences.length === 0 ? "equals the clean run" : `DIFFERS: ${differences.join(" | ")}`}: ${summarizeDump(crashed)}`,
          );
          expect(differences).toEqual([]);
          expect(midBackfill).toBeGreaterThan(0);
        } finally {
          await indexer.stop();
        }
      },
      bySize({ ci: 600_000, full: 3_000_000 }),
    );
  }
});
