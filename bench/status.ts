/*
 * npm run bench:status — what monitoring costs: /api/indexing-status and /amirealtime under 32 and 64 concurrent
 * pollers (autocannon, loopback) against a live devnet index on PGlite, twice: while the indexer backfills (its
 * event loop busy indexing) and once it follows the chains' heads (a block a second per chain: the steady state).
 * Each phase also measures Ponder's own /health, the floor any route of that process can reach, and the indexer's
 * longest event-loop stall during each run (bench/event-loop-probe.cjs preloaded into it).
 *
 * With BENCH_DATABASE=postgres the index lives in PostgreSQL (a fresh database) and a third phase measures an API-only
 * replica (`ponder serve`) over it while the indexer keeps following: the deployment docs/operations.md recommends
 * for latency-sensitive monitoring.
 *
 *   BENCH_DURATION=8 (seconds per run)  BENCH_NAMES=6000 (scenario size: the backfill must outlast its four runs)
 *   BENCH_DATABASE=pglite|postgres
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { startDevnetWithLabels } from "../harness/devnet-fixture";
import { type RunningIndexer, startIndexer, waitFor } from "../harness/indexer-harness";

interface AutocannonResult {
  latency: { p50: number; p99: number; max: number };
  requests: { average: number };
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
}
// autocannon ships no types; this is the part of its API used here.
const autocannon = createRequire(import.meta.url)("autocannon") as (opts: {
  url: string;
  connections: number;
  duration: number;
}) => Promise<AutocannonResult>;

const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const NAMES = Number(process.env.BENCH_NAMES ?? 6000);
const ROUTES = ["/health", "/api/indexing-status", "/amirealtime?maxWorstCaseDistance=600"];
// Ponder builds its indexes and settles right after the backfill; the steady state starts after that.
const SETTLE_MS = Number(process.env.BENCH_SETTLE_SECONDS ?? 30) * 1000;
const CONNECTIONS = [32, 64];
const DATABASE = process.env.BENCH_DATABASE === "postgres" ? "postgres" : "pglite";

interface Row {
  phase: string;
  route: string;
  connections: number;
  result: AutocannonResult;
  stallMs: number;
  note: string;
}

async function omnichainStatus(indexer: RunningIndexer): Promise<string> {
  const res = await fetch(`${indexer.url}/api/indexing-status`);
  if (res.status !== 200) return `HTTP ${res.status}`;
  const body = (await res.json()) as {
    realtimeProjection: { snapshot: { omnichainSnapshot: { omnichainStatus: string } } };
  };
  return body.realtimeProjection.snapshot.omnichainSnapshot.omnichainStatus;
}

/** Every route at every concurrency; the note says when the phase ended mid-run (the row then mixes both). */
async function measure(
  indexer: RunningIndexer,
  probeLog: string,
  phase: string,
  expected: string,
  rows: Row[],
  targetUrl = indexer.url,
): Promise<void> {
  for (const route of ROUTES) {
    for (const connections of CONNECTIONS) {
      const from = Date.now();
      const result = await autocannon({ url: `${targetUrl}${route}`, connections, duration: DURATION });
      const stallMs = longestStall(probeLog, from, Date.now());
      const after = await omnichainStatus(indexer);
      rows.push({ phase, route, connections, result, stallMs, note: after === expected ? "" : `${after} by the end` });
    }
  }
}

/** The indexer's longest event-loop stall between two times, from the probe's per-second lines. */
function longestStall(probeLog: string, from: number, to: number): number {
  let longest = 0;
  for (const line of readFileSync(probeLog, "utf8").split("\n")) {
    const [at, ms] = line.split(" ").map(Number);
    if (at >= from && at <= to + 1_000) longest = Math.max(longest, ms);
  }
  return longest;
}

/** Answers by HTTP status; a run where none came back within its duration says so instead of printing 0 ms. */
function statuses(result: AutocannonResult): string {
  const answered = Object.entries(result.statusCodeStats).map(([code, { count }]) => `${code}×${count}`);
  return answered.length > 0 ? answered.join(" ") : "none";
}

async function main(): Promise<void> {
  const startedAt = Date.now();
  const env = await startDevnetWithLabels({ seed: 1, names: NAMES, mineInterval: 1 });
  console.log(`devnet with ${NAMES} names up in ${Math.round((Date.now() - startedAt) / 1000)} s`);
  const probeDir = mkdtempSync(join(tmpdir(), "nameindex-bench-status-"));
  const probeLog = join(probeDir, "event-loop.log");
  const indexer = await startIndexer({
    manifestPath: env.devnet.manifestPath,
    labelsServiceUrl: env.labelsUrl,
    plugins: ["subgraph", "registrars"],
    database: DATABASE,
    extraEnv: {
      NODE_OPTIONS:
        `${process.env.NODE_OPTIONS ?? ""} --require ${join(import.meta.dirname, "event-loop-probe.cjs")}`.trim(),
      EVENT_LOOP_PROBE_LOG: probeLog,
    },
  });
  const rows: Row[] = [];
  try {
    await waitFor(async () => (await omnichainStatus(indexer)) === "omnichain-backfill", 300_000, "omnichain-backfill");
    console.log(`backfilling; load average ${loadavg()[0].toFixed(1)}`);
    await measure(indexer, probeLog, "backfill", "omnichain-backfill", rows);
    await waitFor(
      async () => (await omnichainStatus(indexer)) === "omnichain-following",
      900_000,
      "omnichain-following",
    );
    console.log(`following; settling ${SETTLE_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    console.log(`measuring the steady state; load average ${loadavg()[0].toFixed(1)}`);
    await measure(indexer, probeLog, "following", "omnichain-following", rows);
    if (DATABASE === "postgres") {
      const replica = await indexer.startReplica();
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      await measure(indexer, probeLog, "following, API replica", "omnichain-following", rows, replica.url);
      await replica.stop();
    }
  } finally {
    await indexer.stop();
    await env.stop();
    rmSync(probeDir, { recursive: true, force: true });
  }
  console.log(
    "\n| phase | route | connections | requests/s | p50 ms | p99 ms | max ms | errors | answered | indexer's longest event-loop stall ms | note |\n|---|---|---|---|---|---|---|---|---|---|---|",
  );
  for (const { phase, route, connections, result: r, stallMs, note } of rows) {
    console.log(
      `| ${phase} | ${route} | ${connections} | ${Math.round(r.requests.average)} | ${r.latency.p50} | ${r.latency.p99} | ${r.latency.max} | ${r.errors} (${r.timeouts} timeouts) | ${statuses(r)} | ${stallMs} | ${note} |`,
    );
  }
  console.log(
    `\nindex on ${DATABASE}; ${DURATION} s per run, loopback, the chains mining a block a second; load average ${loadavg()[0].toFixed(1)} on 2 cores`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
