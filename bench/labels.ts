/*
 * npm run bench:labels — the label healing service at one or more sizes: a generated text label set streamed to disk,
 * ingested by the CLI in a child process (time, disk, RSS sampled through the ingest to show it stays flat), then
 * served from a child process and driven by autocannon over loopback. Heal hits and misses are measured side by side
 * with a reference server (bare node:http answering the same heal API from an in-memory Map), so the service's
 * figures read against what any Node service can do on this machine right now (other load shares the cores).
 *
 *   BENCH_LABELS=1000000[,20000000]  BENCH_DURATION=5 (s per run)  BENCH_ROUNDS=2 (service/reference pairs)
 *   BENCH_DIR=<dir> (default: a tmp dir; removed at the end)
 */
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { processRssMb } from "../harness/process-memory";
import { seededRandom } from "../harness/seeded-random";
import { keccak256 } from "../labels-service/src/keccak256.mjs";
import { processCpuMs } from "./lib/process-cpu";

const SIZES = (process.env.BENCH_LABELS ?? "1000000").split(",").map(Number);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const HIT_POOL = 50_000;
const BATCH_SIZE = 100;
const CONNECTIONS = [32, 64];
/** The peer's `subgraph` label set, for the extrapolation. */
const PEER_SUBGRAPH_LABELS = 133_856_894;

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  "2xx": number;
}
interface AutocannonRequest {
  method?: string;
  path?: string;
  body?: string;
  headers?: Record<string, string>;
  setupRequest?: (req: AutocannonRequest) => AutocannonRequest;
}
type Autocannon = (opts: {
  url: string;
  connections: number;
  duration: number;
  requests?: AutocannonRequest[];
}) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

const root = process.env.BENCH_DIR
  ? (mkdirSync(process.env.BENCH_DIR, { recursive: true }), process.env.BENCH_DIR)
  : mkdtempSync(join(tmpdir(), "labels-bench-"));
const bin = fileURLToPath(new URL("../labels-service/bin/labels-service.mjs", import.meta.url));
const loadNow = () => loadavg()[0].toFixed(1);
const thousands = (n: number) => Math.round(n).toLocaleString("en-US");
const mib = (bytes: number) => bytes / 2 ** 20;

/** The i-th generated label: unique, ASCII, 14–22 bytes (the peer's labels are ~10 bytes on average, a few long). */
const labelAt = (i: number) => `bench-${i.toString(36)}-${i % 1000003}`;

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Writes `count` labels, one per line, through a stream: memory stays flat however many. */
async function writeLabels(path: string, count: number): Promise<void> {
  const out = createWriteStream(path, { highWaterMark: 1 << 20 });
  const LINES_PER_WRITE = 50_000;
  for (let i = 0; i < count; i += LINES_PER_WRITE) {
    let chunk = "";
    for (let j = i; j < Math.min(count, i + LINES_PER_WRITE); j++) chunk += `${labelAt(j)}\n`;
    if (!out.write(chunk)) await new Promise<void>((r) => out.once("drain", () => r()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

/** Runs the CLI's ingest in a child process, sampling its RSS every 250 ms. */
async function ingest(dbPath: string, input: string) {
  const started = performance.now();
  const child = spawn(process.execPath, [bin, "ingest", "--db", dbPath, "--label-set-id", "bench", input], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const samples: { s: number; rss: number }[] = [];
  const timer = setInterval(() => {
    const rss = processRssMb(child.pid!);
    if (Number.isFinite(rss)) samples.push({ s: (performance.now() - started) / 1000, rss });
  }, 250);
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  clearInterval(timer);
  if (code !== 0) throw new Error(`ingest exited with ${code}: ${output.slice(-2000)}`);
  const seconds = (performance.now() - started) / 1000;
  // RSS at each quarter of the ingest: flat means the input's size does not show in memory.
  const at = (fraction: number) => samples.find((x) => x.s >= fraction * seconds)?.rss ?? samples.at(-1)?.rss ?? NaN;
  return { seconds, peakRss: Math.max(...samples.map((x) => x.rss)), quarters: [0.25, 0.5, 0.75, 0.98].map(at) };
}

async function startServerProcess(args: string[]): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    url,
    pid: child.pid!,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

// The reference: the same heal API (GET /v1/heal/0x<64 hex>, the same bodies, statuses and headers as the service's
// fast path) from a Map of labelhash → label held in memory, on bare node:http. It holds the hit pool only: a V8 Map
// takes at most 2^24 (16.7M) entries, and a lookup's cost does not depend on the Map's size.
const REFERENCE_SERVER = `
const map = new Map(Object.entries(JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"))));
const PATTERN = /^0x[0-9a-fA-F]{64}$/;
const NOT_FOUND = JSON.stringify({ status: "error", error: "Label not found", errorCode: 404 });
const INVALID = JSON.stringify({ status: "error", error: "Invalid labelhash - must be a valid hex string", errorCode: 400 });
require("node:http").createServer((req, res) => {
  const hash = req.url.startsWith("/v1/heal/") ? req.url.slice(9) : "";
  let status = 200, body;
  if (!PATTERN.test(hash)) { status = 400; body = INVALID; }
  else {
    const label = map.get(hash.toLowerCase());
    if (label === undefined) { status = 404; body = NOT_FOUND; } else body = JSON.stringify({ status: "success", label });
  }
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body), "access-control-allow-origin": "*" });
  res.end(body);
}).listen({ port: 0, host: "127.0.0.1", backlog: 4096 }, function () { console.log("listening on http://127.0.0.1:" + this.address().port); });`;

interface Run {
  size: number;
  server: string;
  scenario: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  cpuUsPerRequest: number;
  failures: number;
  load: string;
}

async function measure(
  size: number,
  server: { url: string; pid: number },
  serverName: string,
  scenario: string,
  connections: number,
  request: AutocannonRequest,
  expectNon2xx: boolean,
): Promise<Run> {
  const cpuBefore = processCpuMs(server.pid);
  const r = await autocannon({ url: server.url, connections, duration: DURATION_S, requests: [request] });
  const cpuUsPerRequest = ((processCpuMs(server.pid) - cpuBefore) * 1000) / Math.max(1, r.requests.total);
  const failures = r.errors + r.timeouts + (expectNon2xx ? r["2xx"] : r.non2xx);
  const run: Run = {
    size,
    server: serverName,
    scenario,
    connections,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    cpuUsPerRequest,
    failures,
    load: loadNow(),
  };
  console.error(
    `  ${thousands(size)} ${serverName} ${scenario} @${connections}: ${thousands(run.rps)} req/s p99 ${run.p99} ms (load ${run.load})`,
  );
  return run;
}

interface SizeResult {
  size: number;
  generateSeconds: number;
  inputBytes: number;
  ingestSeconds: number;
  dbBytes: number;
  ingestPeakRss: number;
  ingestQuarters: number[];
  idleRss: number;
  peakServeRss: number;
  peakServeAnon: number;
  runs: Run[];
}

async function benchSize(size: number): Promise<SizeResult> {
  const dir = join(root, String(size));
  mkdirSync(dir, { recursive: true });
  const input = join(dir, "labels.txt");
  const dbPath = join(dir, "labels.sqlite");
  console.error(`${thousands(size)} labels in ${dir} (load ${loadNow()})`);
  const t = performance.now();
  await writeLabels(input, size);
  const generateSeconds = (performance.now() - t) / 1000;
  const inputBytes = fileSize(input);
  const ingested = await ingest(dbPath, input);
  rmSync(input, { force: true });
  const dbBytes = fileSize(dbPath) + fileSize(`${dbPath}-wal`);
  console.error(
    `  ingested in ${ingested.seconds.toFixed(1)} s, ${mib(dbBytes).toFixed(0)} MiB, peak RSS ${ingested.peakRss.toFixed(0)} MiB (load ${loadNow()})`,
  );

  const random = seededRandom(size);
  const hits = new Map<string, string>();
  while (hits.size < Math.min(HIT_POOL, size)) {
    const label = labelAt(Math.floor(random() * size));
    hits.set(`0x${keccak256(Buffer.from(label)).toString("hex")}`, label);
  }
  const hitPaths = [...hits.keys()].map((h) => `/v1/heal/${h}`);
  const missPaths = Array.from(
    { length: 1000 },
    (_, i) => `/v1/heal/0x${keccak256(Buffer.from(`missing-${i}`)).toString("hex")}`,
  );
  const batchBodies = Array.from({ length: 200 }, () =>
    JSON.stringify(Array.from({ length: BATCH_SIZE }, () => pick(hitPaths).slice("/v1/heal/".length))),
  );
  const referenceData = join(dir, "reference.json");
  writeFileSync(referenceData, JSON.stringify(Object.fromEntries(hits)));

  const service = await startServerProcess([bin, "serve", "--db", dbPath, "--port", "0"]);
  const reference = await startServerProcess(["-e", REFERENCE_SERVER, referenceData]);
  const idleRss = processRssMb(service.pid);
  let peakServeRss = idleRss;
  let peakServeAnon = processRssMb(service.pid, "RssAnon");
  const sampler = setInterval(() => {
    peakServeRss = Math.max(peakServeRss, processRssMb(service.pid) || 0);
    peakServeAnon = Math.max(peakServeAnon, processRssMb(service.pid, "RssAnon") || 0);
  }, 200);
  const hit: AutocannonRequest = { method: "GET", setupRequest: (r) => ({ ...r, path: pick(hitPaths) }) };
  const miss: AutocannonRequest = { method: "GET", setupRequest: (r) => ({ ...r, path: pick(missPaths) }) };
  const runs: Run[] = [];
  try {
    // A short warm-up each (JIT, connections), then interleaved runs, so both servers see the same machine.
    for (const server of [reference, service])
      await autocannon({ url: server.url, connections: 32, duration: 1, requests: [hit] });
    for (let round = 0; round < ROUNDS; round++) {
      for (const [scenario, request, missing] of [
        ["heal hit", hit, false],
        ["heal miss", miss, true],
      ] as const) {
        runs.push(await measure(size, reference, "reference", scenario, 32, request, missing));
        runs.push(await measure(size, service, "service", scenario, 32, request, missing));
      }
    }
    const others: [string, AutocannonRequest][] = [
      [
        `batch heal (${BATCH_SIZE}/request)`,
        {
          method: "POST",
          path: "/v1/heal",
          headers: { "content-type": "application/json" },
          setupRequest: (r) => ({ ...r, body: pick(batchBodies) }),
        },
      ],
      ["count", { method: "GET", path: "/v1/labels/count" }],
      ["health", { method: "GET", path: "/health" }],
    ];
    runs.push(await measure(size, service, "service", "heal hit", 64, hit, false));
    for (const [scenario, request] of others)
      for (const c of CONNECTIONS) runs.push(await measure(size, service, "service", scenario, c, request, false));
  } finally {
    clearInterval(sampler);
    await service.stop();
    await reference.stop();
  }
  rmSync(dir, { recursive: true, force: true });
  return {
    size,
    generateSeconds,
    inputBytes,
    ingestSeconds: ingested.seconds,
    dbBytes,
    ingestPeakRss: ingested.peakRss,
    ingestQuarters: ingested.quarters,
    idleRss,
    peakServeRss,
    peakServeAnon,
    runs,
  };
}

const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;

/** Mean of a figure over a server's runs of a scenario at 32 connections. */
function mean(r: SizeResult, server: string, scenario: string, figure: "rps" | "cpuUsPerRequest" = "rps"): number {
  const runs = r.runs.filter((x) => x.server === server && x.scenario === scenario && x.connections === 32);
  return runs.reduce((n, x) => n + x[figure], 0) / runs.length;
}

/** The service against the reference in one scenario: req/s (higher is better) and CPU per request (lower is). */
function versusReference(r: SizeResult, scenario: string) {
  const rps = [mean(r, "service", scenario), mean(r, "reference", scenario)] as const;
  const cpu = [
    mean(r, "service", scenario, "cpuUsPerRequest"),
    mean(r, "reference", scenario, "cpuUsPerRequest"),
  ] as const;
  return { scenario, rps, cpu, byRps: rps[0] / rps[1], byCpu: cpu[1] / cpu[0] };
}

async function main() {
  const loadAtStart = loadavg();
  const results: SizeResult[] = [];
  for (const size of SIZES) results.push(await benchSize(size));

  console.log("\n## labels-service benchmark\n");
  console.log(
    "| labels | generate s | input MiB | ingest s | labels/s | database MiB | bytes/label | ingest RSS at 25/50/75/98 % of its time, peak MiB | serving RSS idle / peak MiB (peak without file pages) |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const r of results) {
    console.log(
      `| ${thousands(r.size)} | ${r.generateSeconds.toFixed(1)} | ${mib(r.inputBytes).toFixed(0)} | ${r.ingestSeconds.toFixed(1)} | ${thousands(r.size / r.ingestSeconds)} | ${mib(r.dbBytes).toFixed(0)} | ${(r.dbBytes / r.size).toFixed(1)} | ${r.ingestQuarters.map((q) => q.toFixed(0)).join(" / ")}, ${r.ingestPeakRss.toFixed(0)} | ${r.idleRss.toFixed(0)} / ${r.peakServeRss.toFixed(0)} (${r.peakServeAnon.toFixed(0)}) |`,
    );
  }
  console.log(
    `\n| labels | server | scenario | connections | requests/s | p50 ms | p99 ms | server CPU µs/request | errors | load |\n|---|---|---|---|---|---|---|---|---|---|`,
  );
  for (const r of results) {
    for (const x of r.runs) {
      console.log(
        `| ${thousands(x.size)} | ${x.server} | ${x.scenario} | ${x.connections} | ${thousands(x.rps)} | ${x.p50} | ${x.p99} | ${x.cpuUsPerRequest.toFixed(0)} | ${x.failures} | ${x.load} |`,
      );
    }
  }
  const largest = results.at(-1)!;
  const perLabelSeconds = largest.ingestSeconds / largest.size;
  console.log(
    `\nAt the rate and size per label of the ${thousands(largest.size)}-label run, the peer's ${thousands(PEER_SUBGRAPH_LABELS)}-label subgraph set would ingest in ` +
      `~${((perLabelSeconds * PEER_SUBGRAPH_LABELS) / 60).toFixed(0)} min into ~${(((largest.dbBytes / largest.size) * PEER_SUBGRAPH_LABELS) / 1e9).toFixed(1)} GB ` +
      `(linear: the B-tree's depth grows with log(n), so read it as a lower bound).`,
  );
  console.log(
    `(${DURATION_S} s per run, autocannon over loopback, ${new Date().toISOString()}; load average at start ${loadAtStart.map((l) => l.toFixed(1)).join(" ")}, at end ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")})`,
  );
  // The target is read off this table: CPU per request does not depend on how busy the machine is; req/s does
  // (on a loaded machine each round differs by up to 4×). Both × are service against reference: ≥ 1 is as good.
  console.log(
    `\n| labels | scenario (32 connections) | requests/s service / reference | × by requests/s | server CPU µs/request service / reference | × by CPU |\n|---|---|---|---|---|---|`,
  );
  for (const r of results) {
    for (const c of [versusReference(r, "heal hit"), versusReference(r, "heal miss")]) {
      console.log(
        `| ${thousands(r.size)} | ${c.scenario} | ${thousands(c.rps[0])} / ${thousands(c.rps[1])} | ${c.byRps.toFixed(2)} | ${c.cpu[0].toFixed(0)} / ${c.cpu[1].toFixed(0)} | ${c.byCpu.toFixed(2)} |`,
      );
    }
  }
  for (const r of results) {
    const [hit, miss] = [versusReference(r, "heal hit"), versusReference(r, "heal miss")];
    console.log(
      `labels: ${thousands(r.size)} labels: heal hits ${hit.byRps.toFixed(2)}× the reference by requests/s, ${hit.byCpu.toFixed(2)}× by CPU per request; ` +
        `misses ${miss.byRps.toFixed(2)}× / ${miss.byCpu.toFixed(2)}×`,
    );
  }
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => {
    if (!process.env.BENCH_DIR) rmSync(root, { recursive: true, force: true });
  });
