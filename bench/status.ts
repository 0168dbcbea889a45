/*
 * npm run bench:status — what monitoring costs: /api/indexing-status and /amirealtime under 32 (and 64) concurrent
 * pollers against a live devnet index (PGlite), with p50/p99 and requests/s (autocannon, loopback, bounded).
 *
 *   BENCH_DURATION=10 (seconds per run)  BENCH_NAMES=40
 */
import { createRequire } from "node:module";
import { loadavg } from "node:os";
import { startDevnetWithLabels } from "../test/support/devnet-fixture";
import { startIndexer, waitFor } from "../test/support/indexer-harness";

interface AutocannonResult {
  latency: { p50: number; p99: number };
  requests: { average: number };
  non2xx: number;
  errors: number;
}
// autocannon ships no types; this is the part of its API used here.
const autocannon = createRequire(import.meta.url)("autocannon") as (opts: {
  url: string;
  connections: number;
  duration: number;
}) => Promise<AutocannonResult>;

const DURATION = Number(process.env.BENCH_DURATION ?? 10);

async function main(): Promise<void> {
  const env = await startDevnetWithLabels({ seed: 1, names: Number(process.env.BENCH_NAMES ?? 40), mineInterval: 1 });
  const indexer = await startIndexer({
    manifestPath: env.devnet.manifestPath,
    labelsServiceUrl: env.labelsUrl,
    plugins: ["subgraph", "registrars"],
    database: "pglite",
  });
  const rows: string[] = [];
  try {
    await waitFor(async () => (await fetch(`${indexer.url}/ready`)).status === 200, 300_000, "/ready");
    console.log(`indexer ready; load average ${loadavg()[0].toFixed(1)}`);
    for (const path of ["/api/indexing-status", "/amirealtime?maxWorstCaseDistance=600"]) {
      for (const connections of [32, 64]) {
        const r = await autocannon({ url: `${indexer.url}${path}`, connections, duration: DURATION });
        rows.push(
          `| ${path} | ${connections} | ${Math.round(r.requests.average)} | ${r.latency.p50} | ${r.latency.p99} | ${r.non2xx + r.errors} |`,
        );
      }
    }
  } finally {
    await indexer.stop();
    await env.stop();
  }
  console.log("\n| route | connections | requests/s | p50 ms | p99 ms | errors/non-2xx |\n|---|---|---|---|---|---|");
  for (const row of rows) console.log(row);
  console.log(`\n${DURATION} s per run, loopback, the chains mining a block a second; load average ${loadavg()[0].toFixed(1)} on 2 cores`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
