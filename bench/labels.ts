// Benchmark of the label healing service: ingest speed, database size, and HTTP throughput/latency.
// Builds a 1,000,000-label text set, ingests it, serves it from a child process (so its RSS is its own),
// and drives it with autocannon over loopback. Bounded: every load run lasts DURATION_S seconds.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ingestFile } from "../labels-service/src/index.js";
import { keccak256 } from "../labels-service/src/keccak256.mjs";

const LABELS = Number(process.env.BENCH_LABELS ?? 1_000_000);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 5);
const HIT_POOL = 50_000;
const BATCH_SIZE = 100;
const CONNECTIONS = [32, 64];

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
  method?: string;
  body?: string;
  headers?: Record<string, string>;
}) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

const dir = mkdtempSync(join(tmpdir(), "labels-bench-"));
const input = join(dir, "labels.txt");
const dbPath = join(dir, "labels.sqlite");

function buildInput(): string[] {
  const labels: string[] = [];
  for (let i = 0; i < LABELS; i++) labels.push(`bench-${i.toString(36)}-${(i * 2654435761) % 1000003}`);
  writeFileSync(input, labels.join("\n") + "\n");
  return labels;
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** CPU time (user + system) the process has used, in ms: a load-independent cost per request. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // clock ticks at USER_HZ = 100
}

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : NaN;
}

// A node:http server that answers a constant: the floor any Node service can reach on this machine right now,
// so the service's figures can be read against the machine's state (other load shares the two cores).
const BASELINE_SERVER = `require("node:http").createServer((q, s) => { const b = '{"status":"ok"}';
  s.writeHead(200, { "content-type": "application/json", "content-length": b.length }); s.end(b); })
  .listen(0, "127.0.0.1", function () { console.log("listening on http://127.0.0.1:" + this.address().port); });`;

async function startServerProcess(args?: string[]): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const bin = fileURLToPath(new URL("../labels-service/bin/labels-service.mjs", import.meta.url));
  const child = spawn(process.execPath, args ?? [bin, "serve", "--db", dbPath, "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
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

const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)];

async function main() {
  const loadAtStart = loadavg();
  console.log(`Building ${LABELS.toLocaleString("en-US")} labels in ${dir} ...`);
  const labels = buildInput();

  const started = performance.now();
  const ingest = await ingestFile({ dbPath, file: input, labelSetId: "bench" });
  const ingestSeconds = (performance.now() - started) / 1000;
  const dbBytes = fileSize(dbPath) + fileSize(`${dbPath}-wal`);

  const hitPaths = Array.from({ length: HIT_POOL }, () => `/v1/heal/0x${keccak256(Buffer.from(pick(labels))).toString("hex")}`);
  const missPaths = Array.from({ length: 1000 }, (_, i) => `/v1/heal/0x${keccak256(Buffer.from(`missing-${i}`)).toString("hex")}`);
  const batchBodies = Array.from({ length: 200 }, () =>
    JSON.stringify(Array.from({ length: BATCH_SIZE }, () => pick(hitPaths).slice("/v1/heal/".length))),
  );

  const server = await startServerProcess();
  const idleRss = rssMb(server.pid);
  let peakRss = idleRss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(server.pid))), 200);

  const scenarios: { name: string; request: AutocannonRequest }[] = [
    { name: "heal hit (random of 50k)", request: { method: "GET", setupRequest: (r) => ({ ...r, path: pick(hitPaths) }) } },
    { name: "heal miss", request: { method: "GET", setupRequest: (r) => ({ ...r, path: pick(missPaths) }) } },
    {
      name: `batch heal (${BATCH_SIZE}/request)`,
      request: { method: "POST", path: "/v1/heal", headers: { "content-type": "application/json" }, setupRequest: (r) => ({ ...r, body: pick(batchBodies) }) },
    },
    { name: "count", request: { method: "GET", path: "/v1/labels/count" } },
    { name: "health", request: { method: "GET", path: "/health" } },
  ];

  const rows: string[][] = [];
  const baseline = await startServerProcess(["-e", BASELINE_SERVER]);
  for (const connections of CONNECTIONS) {
    const cpuBefore = cpuMs(baseline.pid);
    const r = await autocannon({ url: baseline.url, connections, duration: DURATION_S });
    const cpuPerRequest = ((cpuMs(baseline.pid) - cpuBefore) * 1000) / Math.max(1, r.requests.total);
    rows.push(["baseline: bare node:http, constant body", String(connections), Math.round(r.requests.average).toLocaleString("en-US"), `${r.latency.p50}`, `${r.latency.p99}`, cpuPerRequest.toFixed(0), String(r.errors + r.timeouts)]);
  }
  await baseline.stop();
  for (const scenario of scenarios) {
    for (const connections of CONNECTIONS) {
      const cpuBefore = cpuMs(server.pid);
      const r = await autocannon({ url: server.url, connections, duration: DURATION_S, requests: [scenario.request] });
      const cpuPerRequest = ((cpuMs(server.pid) - cpuBefore) * 1000) / Math.max(1, r.requests.total);
      const failures = r.errors + r.timeouts + (scenario.name === "heal miss" ? 0 : r.non2xx);
      rows.push([
        scenario.name,
        String(connections),
        Math.round(r.requests.average).toLocaleString("en-US"),
        `${r.latency.p50}`,
        `${r.latency.p99}`,
        cpuPerRequest.toFixed(0),
        String(failures),
      ]);
      console.error(`  ${scenario.name} @${connections}: ${Math.round(r.requests.average)} req/s p99 ${r.latency.p99} ms`);
    }
  }
  clearInterval(sampler);
  const loadedRss = rssMb(server.pid);
  await server.stop();

  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  console.log("\n## labels-service benchmark");
  console.log(`\n| metric | value |\n|---|---|`);
  console.log(`| labels ingested | ${ingest.added.toLocaleString("en-US")} |`);
  console.log(`| ingest time | ${ingestSeconds.toFixed(2)} s |`);
  console.log(`| ingest rate | ${Math.round(LABELS / ingestSeconds).toLocaleString("en-US")} labels/s |`);
  console.log(`| database size | ${mb(dbBytes)} |`);
  console.log(`| server RSS idle / peak under load / after load | ${idleRss.toFixed(0)} / ${peakRss.toFixed(0)} / ${loadedRss.toFixed(0)} MB |`);
  console.log(`\n| scenario | connections | requests/s | p50 ms | p99 ms | server CPU µs/request | errors |\n|---|---|---|---|---|---|---|`);
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
  console.log(
    `\n(${DURATION_S} s per run, autocannon over loopback, ${new Date().toISOString()}; ` +
      `load average at start ${loadAtStart.map((l) => l.toFixed(1)).join(" ")}, at end ${loadavg().map((l) => l.toFixed(1)).join(" ")})`,
  );
  rmSync(dir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  rmSync(dir, { recursive: true, force: true });
  process.exitCode = 1;
});
