/*
 * npm run bench:index — indexing speed on a devnet scenario: events, events/s from process start to head (`/ready`),
 * wall time and peak RSS, on PGlite and on PostgreSQL, and the same PGlite run with every handler a no-op (what
 * Ponder itself costs for those events) as a ratio.
 *
 *   BENCH_NAMES=10000 (scenario size)  BENCH_PLUGINS=subgraph  BENCH_RUNS=pglite,postgres,noop (also postgres-noreads:
 *   PostgreSQL with RESOLVER_READS=false)  BENCH_CALL_DELAY_MS=0: every chain reached through a proxy that answers
 *   eth_call no sooner than this (bench/lib/slow-call-proxy.ts), as a hosted provider's past-block call; the proxy
 *   remembers each answer, so a run after the first gets them without the chain executing them, as from a provider
 *   (e.g. BENCH_RUNS=postgres,postgres,postgres-noreads: the first run fills the memory, the second is measured)
 *   BENCH_LOG_DIR=<dir>: each run's indexer log and its /metrics at /ready, kept as <dir>/<n>-<run>.{log,metrics}
 *   BENCH_PLUGIN_SETS="subgraph;subgraph,ensv2"   several plugin sets (";"-separated) on the same devnet, each with
 *                                                 every run, e.g. the ensv2 plugin on against off (docs/benchmarks.md)
 *
 * CPU seconds per run, from start to /ready: the indexer's process tree, its PostgreSQL backends, and the chains (the
 * anvils, and this process, which holds the slow-call proxy): on a 2-core machine the chains' work for the handlers'
 * eth_calls competes with the indexer's, where a provider's would not (hence the proxy's memory).
 */
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { startDevnetWithLabels } from "../harness/devnet-fixture";
import { startIndexer } from "../harness/indexer-harness";
import { completedEventsByName, handlerCallsByType, watchPeakRss } from "../scripts/lib/peak-rss";
import { type IndexRunKind, indexRunOptions } from "./lib/index-run-kind";
import { cpuReading, cpuSpentMs, processCpuMs } from "./lib/process-cpu";
import { withSlowCalls } from "./lib/slow-call-proxy";

const names = Number(process.env.BENCH_NAMES ?? 10_000);
const pluginSets = (process.env.BENCH_PLUGIN_SETS ?? process.env.BENCH_PLUGINS ?? "subgraph")
  .split(";")
  .map((set) => set.split(","));
const runs = (process.env.BENCH_RUNS ?? "pglite,postgres,noop").split(",") as IndexRunKind[];
const CALL_DELAY_MS = Number(process.env.BENCH_CALL_DELAY_MS ?? 0);
const LOG_DIR = process.env.BENCH_LOG_DIR;
if (!Number.isFinite(CALL_DELAY_MS) || CALL_DELAY_MS < 0)
  throw new Error(`BENCH_CALL_DELAY_MS must be a number of milliseconds ≥ 0, got ${process.env.BENCH_CALL_DELAY_MS}`);

interface RunResult {
  plugins: string;
  run: string;
  events: number;
  seconds: number;
  peakRssMb: number;
  /** The handlers' eth_calls by how Ponder answered them (scripts/lib/peak-rss.ts `handlerCallsByType`). */
  calls: Record<string, number>;
  cpuSeconds: { indexer: number; postgres: number; chains: number };
  /** With BENCH_CALL_DELAY_MS: the eth_calls the chains executed and those the slow-call proxy answered from memory. */
  proxied?: { executed: number; remembered: number };
}

/** The run's indexer log and its Prometheus metrics at /ready, into BENCH_LOG_DIR (for comparing runs' steps). */
async function keepRunFiles(indexer: { url: string; logFile: string }, name: string): Promise<void> {
  mkdirSync(LOG_DIR!, { recursive: true });
  writeFileSync(join(LOG_DIR!, `${name}.metrics`), await (await fetch(`${indexer.url}/metrics`)).text());
  copyFileSync(indexer.logFile, join(LOG_DIR!, `${name}.log`));
}

async function completedEvents(url: string): Promise<number> {
  return Object.values(await completedEventsByName(url)).reduce((a, b) => a + b, 0);
}

async function main(): Promise<void> {
  console.log(
    `bench:index — ${names} names, plugins ${pluginSets.map((p) => p.join(",")).join(" / ")}, load average ${loadavg()[0].toFixed(1)}`,
  );
  const t0 = Date.now();
  const env = await startDevnetWithLabels({ seed: 1, names });
  console.log(`devnet ready in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  const results: RunResult[] = [];
  const chainPids = Object.values(env.devnet.manifest.chains).flatMap((c) => (c.pid ? [c.pid] : []));
  const chainsCpuMs = () =>
    chainPids.reduce((ms, pid) => ms + processCpuMs(pid), 0) +
    (({ user, system }) => (user + system) / 1000)(process.cpuUsage());
  const slow = CALL_DELAY_MS > 0 ? await withSlowCalls(env.devnet.manifestPath, CALL_DELAY_MS) : undefined;
  try {
    for (const plugins of pluginSets)
      for (const run of runs) {
        const started = Date.now();
        const indexer = await startIndexer(indexRunOptions(env, plugins, run, slow?.manifestPath));
        const pid = indexer.process.child.pid!;
        const database = indexer.env.DATABASE_URL ? new URL(indexer.env.DATABASE_URL).pathname.slice(1) : "";
        const [cpuBefore, chainsBefore] = [cpuReading(pid, database), chainsCpuMs()];
        slow?.reset();
        const rss = watchPeakRss(pid, 500);
        try {
          // ready() rejects as soon as the indexer exits, where polling /ready would wait out its timeout. Every 200 ms:
          // the default second would add 0–1 s to the time measured (each poll is a query on the indexer's database).
          await indexer.process.ready(undefined, 200);
          const seconds = (Date.now() - started) / 1000;
          const cpu = cpuSpentMs(cpuBefore, cpuReading(pid, database));
          results.push({
            cpuSeconds: {
              indexer: cpu.tree / 1000,
              postgres: cpu.postgres / 1000,
              chains: (chainsCpuMs() - chainsBefore) / 1000,
            },
            plugins: plugins.join(","),
            run,
            events: await completedEvents(indexer.url),
            seconds,
            peakRssMb: rss.stop(),
            calls: await handlerCallsByType(indexer.url),
            proxied: slow?.counts(),
          });
          console.log(
            `${plugins.join(",")} ${run}: ready after ${seconds.toFixed(1)} s, load average ${loadavg()[0].toFixed(1)}`,
          );
          if (LOG_DIR) await keepRunFiles(indexer, `${results.length}-${run}`);
        } finally {
          rss.stop();
          await indexer.stop();
        }
      }
  } finally {
    await slow?.close();
    await env.stop();
  }
  console.log("");
  console.log(
    `(handler eth_calls${CALL_DELAY_MS ? `, each answered after ${CALL_DELAY_MS} ms` : ""}: waited = asked while the handler waited, not predicted; prefetched = asked ahead from Ponder's prediction; cached = from the sync store)`,
  );
  console.log(
    `| plugins | run | events | wall s (start → ready) | events/s | peak RSS MiB | × no-op time | eth_call waited / prefetched / cached |${slow ? " eth_call executed by the chain / from the proxy's memory |" : ""} CPU s: indexer / PostgreSQL / chains |`,
  );
  console.log(`|---|---|---|---|---|---|---|---|${slow ? "---|" : ""}---|`);
  for (const r of results) {
    const noop = results.find((n) => n.run === "noop" && n.plugins === r.plugins);
    const ratio = noop && r !== noop ? (r.seconds / noop.seconds).toFixed(2) : "—";
    console.log(
      `| ${r.plugins} | ${r.run} | ${r.events} | ${r.seconds.toFixed(1)} | ${Math.round(r.events / r.seconds)} | ${r.peakRssMb.toFixed(0)} | ${ratio} | ${r.calls.rpc ?? 0} / ${r.calls.prefetch_rpc ?? 0} / ${(r.calls.prefetch_database ?? 0) + (r.calls.database ?? 0)} |${r.proxied ? ` ${r.proxied.executed} / ${r.proxied.remembered} |` : ""} ${[r.cpuSeconds.indexer, r.cpuSeconds.postgres, r.cpuSeconds.chains].map((s) => s.toFixed(1)).join(" / ")} |`,
    );
  }
  console.log(
    `\nload average at the end ${loadavg()[0].toFixed(1)} on 2 cores (a shared machine: compare rows, not machines)`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
