/*
 * npm run bench:scale — how the cost grows with the work: the devnet scenario at several sizes, all seven plugins,
 * indexed by `ponder start` on PostgreSQL (a fresh database per run) and on PGlite. Per run: events, events/s from
 * process start to `/ready`, peak RSS of the indexer, database size, and the five common queries of bench:graphql
 * against the indexer's own `/subgraph` with the query cache off (p50/p99 at 32 connections, and alone at one). The
 * load average is printed next to every figure: the machine is shared.
 *
 *   BENCH_SIZES=10000,50000,250000  BENCH_DBS=postgres,pglite  BENCH_PLUGINS=<all seven>  BENCH_DURATION=10 (s/query)
 *   BENCH_CONNECTIONS=32  BENCH_CPU_PROF=<dir>: the indexer writes V8 CPU profiles there, one of the backfill (start to
 *   /ready) and one of the queries (bench/lib/cpu-profiler-preload.cjs; Node 20 refuses --cpu-prof in NODE_OPTIONS).
 *   BENCH_NODE_OPTIONS: more flags for the indexer's node (e.g. --heap-prof --heap-prof-dir=<dir>).
 *   BENCH_TXS_PER_BLOCK=2000: transactions per played block, for every size (anvil's cost per block grows with its
 *   state: past ~200,000 names a block costs ~2 s whatever it holds, so fewer, larger blocks play faster). Compare
 *   sizes played with one value; a size's cached chains are kept per value.
 *
 * RESOLVER_READS=false: those chains answer no eth_call at a past block (docs/benchmarks.md, "Resolver reads").
 *
 * A database may carry `-store` (BENCH_DBS=postgres,postgres-store): the same run with NAMEINDEX_WRITE_BEHIND=false,
 * every row through Ponder's store (the write-behind store's before and after in one run); `-serial`
 * (BENCH_DBS=postgres,postgres-serial): NAMEINDEX_WRITE_BEHIND_PIPELINE=false, each batch's rows written before the
 * next batch begins (the pipeline's before and after). Or `-nohistory`
 * (BENCH_DBS=postgres,postgres-nohistory): the same run with SUBGRAPH_HISTORY_BLOCKS=none, which writes no entity history; with both, a table of what the history costs (CPU,
 * wall, the index on disk) ends the output. BENCH_ROUNDS=N runs every database N times, interleaved (round 1: each in
 * turn, then round 2, …), with medians; BENCH_FLOOR=false skips the floor, BENCH_DURATION=0 the queries.
 *
 * Ponder's own floor: before each size's runs, the same devnet indexed by the same plugins with every handler a no-op
 * (NAMEINDEX_NOOP_HANDLERS) on the first database, from process start to /ready: what fetching, decoding and
 * ordering the same events costs Ponder alone. Each size's `scale:` line ends with the wall time as a multiple of it.
 * BENCH_WRITE_FLOOR=true adds a second floor after it: every handler writes only its log's `indexed_log` row
 * (NAMEINDEX_NOOP_HANDLERS=log), one plain insert per log, what Ponder's store and flush cost for the cheapest write.
 *
 * Each size's chains are played once and kept under .cache/devnet-states/ (harness/cached-devnet.ts); later runs
 * load them into anvil instead of replaying the scenario.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { startCachedDevnet } from "../harness/cached-devnet";
import { startIndexer, waitFor } from "../harness/indexer-harness";
import { completedEventsByName, watchPeakRss } from "../scripts/lib/peak-rss";
import { PLUGIN_NAMES } from "../src/plugins/names";
import { formatBreakdown, type IndexingBreakdown, indexingBreakdown, storeCallsOf } from "./lib/indexing-metrics";
import { median } from "./lib/median";
import { cpuReading, cpuSpentMs, formatThreadSchedule, threadSchedule } from "./lib/process-cpu";
import { type MemoryPeaks, watchMemoryMetrics } from "./lib/process-memory-metrics";
import { cases, indexSubjects, run } from "./lib/subgraph-queries";

const SIZES = (process.env.BENCH_SIZES ?? "10000,50000,250000").split(",").map(Number);
/**
 * A run's database, and whether it keeps the entity history (`-nohistory`: SUBGRAPH_HISTORY_BLOCKS=none) or writes
 * every row through Ponder's store (`-store`: NAMEINDEX_WRITE_BEHIND=false).
 */
type RunKind = `${"postgres" | "pglite"}${"" | "-nohistory" | "-store" | "-serial"}`;
const DBS = (process.env.BENCH_DBS ?? "postgres,pglite").split(",") as RunKind[];
for (const kind of DBS) {
  if (!/^(postgres|pglite)(-nohistory|-store|-serial)?$/.test(kind))
    throw new Error(`BENCH_DBS: ${kind} is not postgres or pglite, each optionally with -nohistory, -store or -serial`);
}
const databaseOf = (kind: RunKind) => (kind.startsWith("postgres") ? "postgres" : "pglite");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error(`BENCH_ROUNDS must be a whole number ≥ 1`);
const WITH_FLOOR = process.env.BENCH_FLOOR !== "false";
const WITH_WRITE_FLOOR = process.env.BENCH_WRITE_FLOOR === "true";
const PLUGINS = process.env.BENCH_PLUGINS?.split(",") ?? [...PLUGIN_NAMES];
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const TXS_PER_BLOCK = Number(process.env.BENCH_TXS_PER_BLOCK ?? 2000);
if (!Number.isInteger(TXS_PER_BLOCK) || TXS_PER_BLOCK < 1)
  throw new Error(`BENCH_TXS_PER_BLOCK must be a whole number ≥ 1, got ${process.env.BENCH_TXS_PER_BLOCK}`);
const CPU_PROF = process.env.BENCH_CPU_PROF;
const CPU_PROFILER = fileURLToPath(new URL("./lib/cpu-profiler-preload.cjs", import.meta.url));
const NODE_OPTIONS = [process.env.NODE_OPTIONS, CPU_PROF && `--require ${CPU_PROFILER}`, process.env.BENCH_NODE_OPTIONS]
  .filter(Boolean)
  .join(" ");

const load = () => loadavg()[0].toFixed(1);
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)} load ${load()}] ${line}`);

/** A table of the index's schema: its bytes with indexes and TOAST, and its rows as ANALYZE estimated them. */
interface TableSize {
  name: string;
  bytes: number;
  rows: number;
}

interface IndexRun {
  names: number;
  db: string;
  round: number;
  events: number;
  seconds: number;
  eventsPerSecond: number;
  /** CPU seconds of the indexer's process tree and, on PostgreSQL, its database's backends, start to /ready. */
  cpuSeconds: number;
  peakRssMb: number;
  memory: MemoryPeaks;
  breakdown: IndexingBreakdown;
  dbMb: number;
  /** PostgreSQL only: the index's tables (`ponder_sync` apart). */
  tables?: TableSize[];
  load: string;
  /** cpuMsPerRequest: the indexer's process tree plus, on PostgreSQL, the backends; postgresMsPerRequest: those backends alone. */
  /** alone: the same query at one connection, where latency is the service time without queueing for a core. */
  queries: {
    query: string;
    p50: number;
    p99: number;
    rps: number;
    cpuMsPerRequest: number;
    postgresMsPerRequest?: number;
    timeouts: number;
    load: string;
    alone: { p50: number; p99: number };
  }[];
}

/**
 * Ponder's floor on this devnet: the same sources, every handler a no-op (register.ts), start to /ready; or (`log`)
 * every handler writing only its log's `indexed_log` row.
 */
interface FloorRun {
  handlers: "noop" | "log";
  names: number;
  db: string;
  events: number;
  seconds: number;
  cpuSeconds: number;
  peakRssMb: number;
  load: string;
  /** Ponder's steps (wait for events, index, flush, …). */
  breakdown: IndexingBreakdown;
}

/** Each floor's name in the table and in the log line. */
const FLOOR_NAMES: Record<FloorRun["handlers"], { short: string; long: string }> = {
  noop: { short: "no-op", long: "no-op handlers (the floor)" },
  log: { short: "indexed_log row only", long: "handlers writing only the log's indexed_log row (the write floor)" },
};

/**
 * `ponder start` on the bench's chains, every plugin of the run, with its clock, peak RSS and CPU counters started.
 * The bench's chains keep no past state (played with --prune-history, or loaded from a saved state), so the resolver
 * reads at an event's block cannot be answered: ~3 % of the devnet's events, ~0.5 % of mainnet's (RESOLVER_READS off).
 */
async function startMeasured(
  db: "postgres" | "pglite",
  manifestPath: string,
  labelsServiceUrl: string,
  extraEnv: Record<string, string>,
) {
  const started = Date.now();
  const indexer = await startIndexer({
    manifestPath,
    labelsServiceUrl,
    plugins: PLUGINS,
    database: db,
    extraEnv: { RESOLVER_READS: "false", ...(NODE_OPTIONS ? { NODE_OPTIONS } : {}), ...extraEnv },
  });
  const rss = watchPeakRss(indexer.process.child.pid!, 500);
  const cpuAtStart = cpuReading(indexer.process.child.pid!, indexer.schema);
  return { started, indexer, rss, cpuAtStart };
}

async function floorRun(
  names: number,
  db: "postgres" | "pglite",
  manifestPath: string,
  labelsServiceUrl: string,
  handlers: FloorRun["handlers"] = "noop",
): Promise<FloorRun> {
  const { started, indexer, rss, cpuAtStart } = await startMeasured(db, manifestPath, labelsServiceUrl, {
    NAMEINDEX_NOOP_HANDLERS: handlers === "log" ? "log" : "true",
  });
  try {
    await indexer.process.ready(undefined, 200);
    const seconds = (Date.now() - started) / 1000;
    const cpu = cpuSpentMs(cpuAtStart, cpuReading(indexer.process.child.pid!, indexer.schema));
    const run = {
      handlers,
      names,
      db,
      events: await completedEvents(indexer.url),
      seconds,
      cpuSeconds: (cpu.tree + cpu.postgres) / 1000,
      peakRssMb: rss.stop(),
      load: load(),
      breakdown: await indexingBreakdown(indexer.url),
    };
    log(
      `${db} ${names}, ${FLOOR_NAMES[handlers].long}: ready after ${seconds.toFixed(1)} s, ${run.events} events, CPU ${run.cpuSeconds.toFixed(1)} s, peak RSS ${run.peakRssMb.toFixed(0)} MiB`,
    );
    return run;
  } finally {
    rss.stop();
    await indexer.stop();
  }
}

function directoryBytes(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((n, e) => {
    const path = join(dir, e.name);
    return n + (e.isDirectory() ? directoryBytes(path) : e.isFile() ? statSync(path).size : 0);
  }, 0);
}

/**
 * The database's size (`pg_database_size`) and where its bytes are: per schema (the index's own, Ponder's sync store
 * `ponder_sync`) and the largest tables with their indexes. For sizing a disk: the index grows with names, the sync
 * store with the chains' logs.
 */
async function postgresSize(
  databaseUrl: string,
  indexSchema: string,
): Promise<{ bytes: number; breakdown: string; tables: TableSize[] }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const total = await client.query<{ size: string }>("select pg_database_size(current_database())::text as size");
    const { rows } = await client.query<{ schema: string; name: string; bytes: string; rows: string }>(
      `select n.nspname as schema, c.relname as name, pg_total_relation_size(c.oid)::text as bytes,
              greatest(c.reltuples, 0)::bigint::text as rows
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')`,
    );
    const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
    const bySchema = new Map<string, number>();
    for (const r of rows) bySchema.set(r.schema, (bySchema.get(r.schema) ?? 0) + Number(r.bytes));
    const largest = [...rows].sort((a, b) => Number(b.bytes) - Number(a.bytes)).slice(0, 6);
    const breakdown =
      [...bySchema]
        .sort((a, b) => b[1] - a[1])
        .map(([schema, bytes]) => `${schema} ${mb(bytes)}`)
        .join(", ") +
      `; largest tables with their indexes: ${largest.map((r) => `${r.name} ${mb(Number(r.bytes))}`).join(", ")}`;
    const tables = rows
      .filter((r) => r.schema === indexSchema)
      .map((r) => ({ name: r.name, bytes: Number(r.bytes), rows: Number(r.rows) }));
    return { bytes: Number(total.rows[0]!.size), breakdown, tables };
  } finally {
    await client.end();
  }
}

async function indexAndQuery(
  names: number,
  kind: RunKind,
  round: number,
  manifestPath: string,
  labelsServiceUrl: string,
): Promise<IndexRun> {
  const db = databaseOf(kind);
  const { started, indexer, rss, cpuAtStart } = await startMeasured(db, manifestPath, labelsServiceUrl, {
    SUBGRAPH_QUERY_CACHE_MB: "0",
    ...(kind.endsWith("-nohistory") ? { SUBGRAPH_HISTORY_BLOCKS: "none" } : {}),
    ...(kind.endsWith("-store") ? { NAMEINDEX_WRITE_BEHIND: "false" } : {}),
    ...(kind.endsWith("-serial") ? { NAMEINDEX_WRITE_BEHIND_PIPELINE: "false" } : {}),
    // One profile from start to /ready, one of the query phase: SIGUSR2 starts and stops the profiler.
    ...(CPU_PROF ? { NAMEINDEX_CPU_PROF_DIR: CPU_PROF, NAMEINDEX_CPU_PROF_MODE: "signal" } : {}),
  });
  // The profiler runs from the process's start (a signal before it is loaded would end the process).
  const toggleCpuProfile = () => CPU_PROF && process.kill(indexer.process.child.pid!, "SIGUSR2");
  const memoryMetrics = watchMemoryMetrics(indexer.url);
  try {
    const progress = setInterval(
      () =>
        void completedEvents(indexer.url).then(
          (n) => log(`${kind} ${names}: ${n} events`),
          () => {},
        ),
      30_000,
    );
    try {
      await indexer.process.ready(undefined, 200);
    } finally {
      clearInterval(progress);
    }
    const seconds = (Date.now() - started) / 1000;
    const backfillCpu = cpuSpentMs(cpuAtStart, cpuReading(indexer.process.child.pid!, indexer.schema));
    const threads = threadSchedule(indexer.process.child.pid!);
    const cpuSeconds = (backfillCpu.tree + backfillCpu.postgres) / 1000;
    toggleCpuProfile();
    const peakRssMb = rss.stop();
    const memory = memoryMetrics.stop();
    const events = await completedEvents(indexer.url);
    const breakdown = await indexingBreakdown(indexer.url);
    const runLoad = load();
    log(
      `${kind} ${names}: ready after ${seconds.toFixed(1)} s, ${events} events (${Math.round(events / seconds)}/s), peak RSS ${peakRssMb.toFixed(0)} MiB ` +
        `(peaks: V8 heap used ${memory.heapUsedMb.toFixed(0)}, reserved ${memory.heapTotalMb.toFixed(0)}, external ${memory.externalMb.toFixed(0)} MiB)`,
    );
    log(
      `${kind} ${names}: ${formatBreakdown(breakdown)}; CPU ${cpuSeconds.toFixed(1)} s (${Math.round(events / cpuSeconds)} events per CPU second)`,
    );
    log(`${kind} ${names}: the indexer's threads, start to /ready: ${formatThreadSchedule(threads)}`);
    // The tables are analyzed a few seconds after /ready; query after that, as an operator's users would.
    const analyzed = db === "pglite" ? "PGlite: analyzed" : "PostgreSQL: analyzed";
    await waitFor(async () => readFileSync(indexer.logFile, "utf8").includes(analyzed), 300_000, "ANALYZE");
    const postgres = db === "postgres" ? await postgresSize(indexer.env.DATABASE_URL!, indexer.schema) : undefined;
    const dbBytes = postgres?.bytes ?? directoryBytes(indexer.pgliteDirectory!);
    if (postgres) log(`${kind} ${names}: database ${(dbBytes / 2 ** 20).toFixed(0)} MiB: ${postgres.breakdown}`);
    const url = `${indexer.url}/subgraph`;
    const queries: IndexRun["queries"] = [];
    // What a query costs the indexer and, on PostgreSQL, the database's backends: a figure the machine's load does
    // not inflate the way it does latency.
    const pid = indexer.process.child.pid!;
    // On PGlite no backend matches the schema's name, so `postgres` stays 0.
    const serverCpu = () => cpuReading(pid, indexer.schema);
    const subjects = DURATION > 0 ? await indexSubjects(url) : undefined;
    toggleCpuProfile();
    for (const c of subjects ? cases(subjects) : []) {
      await run(url, c, 2, CONNECTIONS); // warm-up: connections, plans
      const cpu0 = serverCpu();
      const r = await run(url, c, DURATION, CONNECTIONS);
      const spent = cpuSpentMs(cpu0, serverCpu());
      const requests = Math.max(1, r.requests.total);
      const cpuMsPerRequest = (spent.tree + spent.postgres) / requests;
      const postgresMsPerRequest = db === "postgres" ? spent.postgres / requests : undefined;
      // A non-2xx answer is a defect; a timeout (no answer within autocannon's 10 s) is a latency, counted in `errors`.
      if (r.non2xx > 0) throw new Error(`${c.name}: ${r.non2xx} non-2xx answers`);
      // At 32 connections on two cores the p99 is mostly waiting for a core; one connection shows what a query takes.
      const one = await run(url, c, Math.max(3, DURATION / 2), 1);
      if (one.non2xx > 0) throw new Error(`${c.name}: ${one.non2xx} non-2xx answers at one connection`);
      const alone = { p50: one.latency.p50, p99: one.latency.p99 };
      queries.push({
        query: c.name,
        p50: r.latency.p50,
        p99: r.latency.p99,
        rps: Math.round(r.requests.average),
        cpuMsPerRequest,
        postgresMsPerRequest,
        timeouts: r.errors + r.timeouts,
        load: load(),
        alone,
      });
      log(
        `${kind} ${names}: ${c.name} p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, ${Math.round(r.requests.average)} req/s, ${cpuMsPerRequest.toFixed(2)} CPU ms/req${postgresMsPerRequest === undefined ? "" : ` (PostgreSQL ${postgresMsPerRequest.toFixed(2)})`}, ${r.errors + r.timeouts} timeouts/errors; one connection p50 ${alone.p50} ms, p99 ${alone.p99} ms`,
      );
    }
    toggleCpuProfile();
    return {
      names,
      db: kind,
      round,
      events,
      seconds,
      eventsPerSecond: events / seconds,
      cpuSeconds,
      peakRssMb,
      memory,
      breakdown,
      dbMb: dbBytes / 2 ** 20,
      tables: postgres?.tables,
      load: runLoad,
      queries,
    };
  } finally {
    rss.stop();
    memoryMetrics.stop();
    await indexer.stop();
  }
}

/**
 * Bytes on disk per indexed event, table by table (PostgreSQL runs): what a disk must hold per event of a chain, the
 * index's schema alone. Tables under 1 % of the schema are summed into one line.
 */
function printBytesPerEvent(runs: IndexRun[]): void {
  const measured = runs.filter((r) => r.tables);
  if (measured.length === 0) return;
  console.log(
    "\nBytes on disk per event by table (PostgreSQL; the index's schema, ponder_sync apart; indexes and TOAST included)",
  );
  console.log("| names | table | rows | MiB | bytes per row | bytes per event |");
  console.log("|---|---|---|---|---|---|");
  for (const r of measured) {
    const tables = [...r.tables!].sort((a, b) => b.bytes - a.bytes);
    const total = tables.reduce((n, t) => n + t.bytes, 0);
    const line = (name: string, bytes: number, rows: number | undefined) =>
      console.log(
        `| ${r.names} | ${name} | ${rows ?? ""} | ${(bytes / 2 ** 20).toFixed(1)} | ${rows ? Math.round(bytes / rows) : ""} | ${(bytes / r.events).toFixed(1)} |`,
      );
    const small = tables.filter((t) => t.bytes < total / 100);
    for (const t of tables.filter((t) => t.bytes >= total / 100)) line(t.name, t.bytes, t.rows);
    const rowsOf = (some: typeof tables) => some.reduce((n, t) => n + t.rows, 0);
    line(
      `${small.length} smaller tables`,
      small.reduce((n, t) => n + t.bytes, 0),
      rowsOf(small),
    );
    line("**all**", total, rowsOf(tables));
  }
}

async function completedEvents(url: string): Promise<number> {
  return Object.values(await completedEventsByName(url)).reduce((a, b) => a + b, 0);
}

async function main(): Promise<void> {
  log(
    `bench:scale — sizes ${SIZES.join(", ")}, ${DBS.join(" and ")}, plugins ${PLUGINS.join(",")}, RESOLVER_READS=false`,
  );
  const runs: IndexRun[] = [];
  const floors: FloorRun[] = [];
  const chains: Record<string, string>[] = [];
  for (const names of SIZES) {
    const env = await startCachedDevnet(1, names, TXS_PER_BLOCK, (line) => log(`devnet ${names}: ${line}`));
    const counts = env.devnet.manifest.scenario.eventCounts as Record<string, number>;
    const logs = Object.values(counts).reduce((a, b) => a + b, 0);
    chains.push({
      names: String(names),
      origin: env.origin,
      seconds: env.seconds.toFixed(1),
      "manifest events": String(logs),
      load: load(),
    });
    log(`devnet ${names}: chains ready (${env.origin}) in ${env.seconds.toFixed(1)} s, ${logs} events in the manifest`);
    try {
      if (WITH_FLOOR) floors.push(await floorRun(names, databaseOf(DBS[0]!), env.devnet.manifestPath, env.labelsUrl));
      if (WITH_WRITE_FLOOR)
        floors.push(await floorRun(names, databaseOf(DBS[0]!), env.devnet.manifestPath, env.labelsUrl, "log"));
      for (let round = 1; round <= ROUNDS; round++) {
        for (const kind of DBS) {
          runs.push(await indexAndQuery(names, kind, round, env.devnet.manifestPath, env.labelsUrl));
        }
      }
    } finally {
      await env.stop();
    }
  }

  console.log("\nChains (played: the scenario sent as transactions; cache: anvil --load-state)");
  console.table(chains);
  console.log("\nIndexing, all of it from process start to /ready");
  console.log("(peaks over the run, sampled every 15 s from /metrics: V8 heap used, V8 heap reserved, external)");
  console.log(
    "(CPU: the indexer's process tree and, on PostgreSQL, its database's backends: the rate a loaded machine distorts least)",
  );
  console.log(
    "| names | database | round | events | s | events/s | CPU s | events per CPU s | peak RSS MiB | heap used / reserved / external MiB | database MiB | load |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const r of runs) {
    const m = r.memory;
    console.log(
      `| ${r.names} | ${r.db} | ${r.round} | ${r.events} | ${r.seconds.toFixed(1)} | ${Math.round(r.eventsPerSecond)} | ${r.cpuSeconds.toFixed(1)} | ${Math.round(r.events / r.cpuSeconds)} | ${r.peakRssMb.toFixed(0)} | ${m.heapUsedMb.toFixed(0)} / ${m.heapTotalMb.toFixed(0)} / ${m.externalMb.toFixed(0)} | ${r.dbMb.toFixed(0)} | ${r.load} |`,
    );
  }
  console.log(
    `\nPonder's floor: the same devnets and plugins, every handler a no-op (NAMEINDEX_NOOP_HANDLERS), on ${DBS[0]}`,
  );
  console.log("| names | handlers | events | s | events/s | CPU s | peak RSS MiB | load |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const f of floors) {
    console.log(
      `| ${f.names} | ${FLOOR_NAMES[f.handlers].short} | ${f.events} | ${f.seconds.toFixed(1)} | ${Math.round(f.events / f.seconds)} | ${f.cpuSeconds.toFixed(1)} | ${f.peakRssMb.toFixed(0)} | ${f.load} |`,
    );
  }
  for (const f of floors) console.log(`- ${f.names} ${FLOOR_NAMES[f.handlers].short}: ${formatBreakdown(f.breakdown)}`);
  printBytesPerEvent(runs);
  console.log("\nWhere the backfill's time went (Ponder's /metrics at /ready: its steps per batch, one after another)");
  for (const r of runs) console.log(`- ${r.names} ${r.db}: ${formatBreakdown(r.breakdown)}`);
  console.log(`\n/subgraph uncached (SUBGRAPH_QUERY_CACHE_MB=0), ${CONNECTIONS} connections, ${DURATION} s per query`);
  console.log("(server CPU: the indexer's process tree, plus on PostgreSQL the backends serving its database)");
  console.log("(one connection: the same query alone, its latency without queueing for a core)");
  console.log(
    "| names | database | query | p50 ms | p99 ms | req/s | server CPU ms/req (of which PostgreSQL) | timeouts (> 10 s) | one connection p50 / p99 ms | load |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  for (const r of runs) {
    for (const q of r.queries)
      console.log(
        `| ${r.names} | ${r.db} | ${q.query} | ${q.p50} | ${q.p99} | ${q.rps} | ${q.cpuMsPerRequest.toFixed(2)}${q.postgresMsPerRequest === undefined ? "" : ` (${q.postgresMsPerRequest.toFixed(2)})`} | ${q.timeouts} | ${q.alone.p50} / ${q.alone.p99} | ${q.load} |`,
      );
  }

  // The headline compares the largest size with the smallest on the first database measured at both.
  const db = DBS[0]!;
  const base = runs.find((r) => r.db === db && r.names === Math.min(...SIZES));
  const top = runs.find((r) => r.db === db && r.names === Math.max(...SIZES));
  if (!base || !top) throw new Error("no runs to compare");
  const p99 = top.queries.length ? `${Math.max(...top.queries.map((q) => q.p99))} ms` : "not measured";
  const perCpu = (r: IndexRun) => r.events / r.cpuSeconds;
  console.log(
    `\nby CPU: ${top.names} names: ${Math.round(perCpu(top))} events per CPU second, ${(perCpu(top) / perCpu(base)).toFixed(2)}× the ${base.names}-name run's (load at each: ${base.load}, ${top.load})`,
  );
  console.log(
    `headline on ${db}; load average now ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} on 2 cores`,
  );
  console.log(
    `scale: ${top.names} names: ${Math.round(top.eventsPerSecond)} events/s (${(top.eventsPerSecond / base.eventsPerSecond).toFixed(2)}× the 10k rate), peak RSS ${top.peakRssMb.toFixed(0)} MiB (${(top.peakRssMb / base.peakRssMb).toFixed(2)}× 10k), uncached /subgraph p99 ${p99}`,
  );
  // One line per size and database: the wall time from start to /ready against the floor measured on the same chains.
  for (const r of runs) {
    const floor = floors.find((f) => f.names === r.names && f.handlers === "noop");
    const writeFloor = floors.find((f) => f.names === r.names && f.handlers === "log");
    const against = floor
      ? `; the floor ${floor.seconds.toFixed(1)} s (${floor.db}): ${(r.seconds / floor.seconds).toFixed(2)}× the no-op floor`
      : "";
    const againstWrites =
      floor && writeFloor
        ? `; the write floor ${writeFloor.seconds.toFixed(1)} s: ${(writeFloor.seconds / floor.seconds).toFixed(2)}× the no-op floor`
        : "";
    // Rows the index holds: counted on PostgreSQL; a PGlite index of the same chains holds the same rows.
    const rows = (r.tables ?? runs.find((o) => o.names === r.names && o.tables)?.tables)?.reduce(
      (n, t) => n + t.rows,
      0,
    );
    const perEvent = (n: number) => (n / r.events).toFixed(2);
    const writes =
      `, ${perEvent(storeCallsOf(r.breakdown))} store calls per event` +
      (rows ? `, ${perEvent(rows)} rows per event` : "") +
      (rows && floor
        ? `, ${(((r.seconds - floor.seconds) * 1e6) / rows).toFixed(1)} µs over the floor per row written`
        : "");
    console.log(
      `scale: ${r.names} names, ${r.db}${ROUNDS > 1 ? ` round ${r.round}` : ""}: ${r.seconds.toFixed(1)} s to /ready, ${Math.round(r.eventsPerSecond)} events/s, CPU ${r.cpuSeconds.toFixed(1)} s, peak RSS ${r.peakRssMb.toFixed(0)} MiB${against}${againstWrites}${writes}`,
    );
  }
  printHistoryCost(runs);
}

/** The index's bytes: its schema's tables on PostgreSQL, the data folder on PGlite. */
const indexMb = (r: IndexRun) => (r.tables ? r.tables.reduce((n, t) => n + t.bytes, 0) / 2 ** 20 : r.dbMb);

/**
 * What the entity history costs (issue 52's cost table): each database run with and without it (`-nohistory`), the
 * medians over the rounds and the change the history makes, with each round's own change beside it.
 */
function printHistoryCost(runs: IndexRun[]): void {
  const pairs = SIZES.flatMap((names) =>
    (["postgres", "pglite"] as const).flatMap((db) => {
      const of = (kind: string) => runs.filter((r) => r.names === names && r.db === kind);
      const [on, off] = [of(db), of(`${db}-nohistory`)];
      return on.length && off.length ? [{ names, db, on, off }] : [];
    }),
  );
  if (pairs.length === 0) return;
  console.log(
    "\nWhat the entity history costs (SUBGRAPH_HISTORY_BLOCKS=all, the default, against none), medians over the rounds",
  );
  console.log(
    `(the index on disk: ${pairs.some((p) => p.db === "postgres") ? "the index schema's tables with their indexes on PostgreSQL, " : ""}the data folder on PGlite)`,
  );
  console.log(
    "| names | database | history | CPU s per round | CPU s | Δ CPU (per round) | s to /ready | Δ wall | index MiB | Δ disk | peak RSS MiB |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|");
  const pct = (a: number, b: number) => `${a >= b ? "+" : ""}${((a / b - 1) * 100).toFixed(1)} %`;
  for (const { names, db, on, off } of pairs) {
    const perRound = on
      .map((r) => {
        const other = off.find((o) => o.round === r.round);
        return other ? pct(r.cpuSeconds, other.cpuSeconds) : undefined;
      })
      .filter(Boolean)
      .join(", ");
    const row = (label: string, list: IndexRun[], base?: IndexRun[]) => {
      const cpu = median(list.map((r) => r.cpuSeconds));
      const wall = median(list.map((r) => r.seconds));
      const disk = median(list.map(indexMb));
      const delta = (value: number, of: (r: IndexRun) => number) => (base ? pct(value, median(base.map(of))) : "—");
      console.log(
        `| ${names} | ${db} | ${label} | ${list.map((r) => r.cpuSeconds.toFixed(1)).join(" / ")} | ${cpu.toFixed(1)} | ${base ? `${delta(cpu, (r) => r.cpuSeconds)} (${perRound})` : "—"} | ${wall.toFixed(1)} | ${delta(wall, (r) => r.seconds)} | ${disk.toFixed(1)} | ${delta(disk, indexMb)} | ${list.map((r) => r.peakRssMb.toFixed(0)).join(" / ")} |`,
      );
    };
    row("none", off);
    row("all", on, off);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
