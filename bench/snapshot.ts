/*
 * npm run bench:snapshot — what a snapshot costs as the index grows: the devnet scenario at each size, every default
 * plugin, indexed on PostgreSQL by `ponder start`; then, while it runs, `snapshot create`, and `snapshot restore` into a
 * new database verified against the devnet (the chunk sample and checkpoints; no name sample, see below), then
 * `snapshot verify --full` on it. Per size: the index's rows and size on disk, the snapshot's size, bytes per event of
 * both, and the seconds of create, restore (from the local file: its rows loaded as they are read, then the keys and
 * indexes on two connections), the sampled verify and the full one, with their rates per on-disk MiB; then the
 * projection of those rates to a mainnet operator (lib/snapshot-projection.ts), as docs/benchmarks.md shows it.
 * The index lives in a private PostgreSQL cluster of its own (harness/private-postgres.ts), so the same run also takes
 * a physical copy of it (`create --cluster`) and restores that (`restore --pgdata`): its file, unpack, start and
 * verify, the disk's sustained write rate where it unpacked (which bounds a mainnet unpack), and its projection.
 *
 *   BENCH_SIZES=10000  BENCH_TXS_PER_BLOCK=2000 (as bench:scale; the played chains are cached under .cache/)
 *   BENCH_CHUNK_ROWS=2000  BENCH_SAMPLE_CHUNKS=200 (create's --chunk-rows, restore's --chunks; their defaults)
 */
import { execFileSync } from "node:child_process";
import { chownSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { startCachedDevnet } from "../harness/cached-devnet";
import { indexBytes } from "../harness/index-bytes";
import { createDatabase, dropDatabase, startIndexer } from "../harness/indexer-harness";
import { startPrimary } from "../harness/private-postgres";
import { completedEventsByName } from "../scripts/lib/peak-rss";
import { createSnapshot, restoreSnapshot, verifySnapshot } from "../snapshot";
import { DEFAULT_SAMPLE_CHUNKS } from "../snapshot/chunk-sample";
import { readSnapshotFile } from "../snapshot/container";
import { DEFAULT_CHUNK_ROWS } from "../snapshot/digest";
import { buildConfig } from "../src/config";
import { DEFAULT_PLUGIN_NAMES } from "../src/plugins/names";
import { diskWriteRate } from "./lib/disk-write-rate";
import { type ClusterRun, projectClusterToMainnet, projectToMainnet } from "./lib/snapshot-projection";

const SIZES = (process.env.BENCH_SIZES ?? "10000").split(",").map(Number);
const TXS_PER_BLOCK = Number(process.env.BENCH_TXS_PER_BLOCK ?? 2000);
const CHUNK_ROWS = Number(process.env.BENCH_CHUNK_ROWS ?? DEFAULT_CHUNK_ROWS);
const SAMPLE_CHUNKS = Number(process.env.BENCH_SAMPLE_CHUNKS ?? DEFAULT_SAMPLE_CHUNKS);
const log = (line: string) => console.log(`[bench:snapshot] ${line}`);

interface Row {
  names: number;
  events: number;
  rows: number;
  tableRows: number[];
  diskMiB: number;
  snapshotMiB: number;
  createS: number;
  restoreS: number;
  loadS: number;
  postDataS: number;
  ponderIndexS: number;
  verifyS: number;
  chunks: string;
  fullS: number;
  rpcCalls: number;
  load: string;
  cluster: ClusterRun & { createS: number; verifyS: number };
}

/** Bytes of every file under `directory` (`du`'s apparent size). */
function directoryBytes(directory: string): number {
  return Number(execFileSync("du", ["-sb", directory]).toString().split("\t")[0]);
}

async function measure(names: number): Promise<Row> {
  const env = await startCachedDevnet(1, names, TXS_PER_BLOCK, (line) => log(`devnet ${names}: ${line}`));
  const dir = mkdtempSync(join(tmpdir(), "nameindex-bench-snapshot-"));
  // The OS user that runs PostgreSQL owns the physical copy's data directory, made in here.
  chownSync(dir, Number(execFileSync("id", ["-u", "postgres"]).toString()), -1);
  const target = `bench_snapshot_${Date.now().toString(36)}`;
  const cluster = await startPrimary("nameindex");
  try {
    const indexer = await startIndexer({
      reuse: { databaseUrl: cluster.primary.url("nameindex") },
      manifestPath: env.devnet.manifestPath,
      labelsServiceUrl: env.labelsUrl,
      plugins: [...DEFAULT_PLUGIN_NAMES],
      database: "postgres",
      // The cached chains are loaded from anvil state files, without past state: no eth_call at an event's block.
      extraEnv: { RESOLVER_READS: "false" },
    });
    try {
      await indexer.process.ready();
      await new Promise((r) => setTimeout(r, 5_000));
      const bytes = await indexBytes(indexer.env.DATABASE_URL!, indexer.schema);
      const events = Object.values(await completedEventsByName(indexer.url)).reduce((a, b) => a + b, 0);
      const file = join(dir, "index.snapshot");
      let started = Date.now();
      await createSnapshot(buildConfig(indexer.env), file, log, { chunkRows: CHUNK_ROWS });
      const createS = (Date.now() - started) / 1000;
      const { manifest } = await readSnapshotFile(file);
      const indexTables = Object.entries(manifest.tables).filter(([name]) => name.startsWith("index."));
      const rows = indexTables.reduce((sum, [, t]) => sum + t.rows, 0);
      const targetUrl = await createDatabase(target);
      started = Date.now();
      const restored = buildConfig({ ...indexer.env, DATABASE_URL: targetUrl, DATABASE_SCHEMA: "restored" });
      const report = await restoreSnapshot(
        restored,
        file,
        // A cached devnet is loaded into anvil without its state history, so eth_call at the resume block fails there:
        // the sample's cost is the rehearsal's to measure (200 names: ~120 RPC calls, under a second).
        { sampleSize: 0, chunks: SAMPLE_CHUNKS },
        log,
      );
      const restoreS = (Date.now() - started) / 1000 - report.seconds;
      const full = await verifySnapshot(restored, file, { sampleSize: 0, chunks: "all" }, log);

      const clusterFile = join(dir, "cluster.snapshot");
      started = Date.now();
      await createSnapshot(buildConfig(indexer.env), clusterFile, log, { chunkRows: CHUNK_ROWS, cluster: true });
      const clusterCreateS = (Date.now() - started) / 1000;
      // The copy's restore needs neither the indexer nor its cluster: both cores go to unpacking, as on an operator's
      // new machine.
      await indexer.process.stop();
      const pgdata = join(dir, "pgdata");
      const physical = await restoreSnapshot(
        buildConfig(indexer.env),
        clusterFile,
        { sampleSize: 0, chunks: SAMPLE_CHUNKS, pgdata },
        log,
      );
      return {
        names,
        events,
        rows,
        tableRows: indexTables.map(([, t]) => t.rows),
        diskMiB: bytes / 2 ** 20,
        snapshotMiB: statSync(file).size / 2 ** 20,
        createS,
        restoreS,
        loadS: report.restore?.loadSeconds ?? Number.NaN,
        postDataS: report.restore?.postDataSeconds ?? Number.NaN,
        ponderIndexS: report.restore?.ponderIndexSeconds ?? Number.NaN,
        verifyS: report.seconds,
        chunks: `${report.chunks.checked} of ${report.chunks.total}`,
        fullS: full.seconds,
        rpcCalls: report.rpcCalls,
        load: loadavg()[0].toFixed(1),
        cluster: {
          createS: clusterCreateS,
          fileBytes: statSync(clusterFile).size,
          unpackSeconds: physical.restore!.loadSeconds,
          startSeconds: physical.restore!.startSeconds!,
          verifyS: physical.seconds,
          directoryBytes: directoryBytes(pgdata),
          diskWriteBytesPerSecond: diskWriteRate(dir),
        },
      };
    } finally {
      await indexer.stop();
    }
  } finally {
    await dropDatabase(target);
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
    await env.stop();
  }
}

const results: Row[] = [];
for (const names of SIZES) results.push(await measure(names));
const f = (n: number, d = 1) => n.toFixed(d);
console.log(
  `\n| names | events | index rows | index on disk (B/event) | snapshot (B/event) | create | restore (rows + keys, triggers + ponder.schema.ts indexes) | verify (${SAMPLE_CHUNKS} chunks of ${CHUNK_ROWS} rows per table) | chunks checked | verify --full | verify RPC calls | restore MiB/s (on disk) | verify --full MiB/s (on disk) | load |`,
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
for (const r of results) {
  const perEvent = (mib: number) => Math.round((mib * 2 ** 20) / r.events);
  console.log(
    `| ${r.names} | ${r.events} | ${r.rows} | ${f(r.diskMiB)} MiB (${perEvent(r.diskMiB)}) | ${f(r.snapshotMiB)} MiB (${perEvent(r.snapshotMiB)}) | ${f(r.createS)} s | ${f(r.restoreS)} s (${f(r.loadS)} + ${f(r.postDataS)} + ${f(r.ponderIndexS)}) | ${f(r.verifyS)} s | ${r.chunks} | ${f(r.fullS)} s | ${r.rpcCalls} | ${f(r.diskMiB / r.restoreS)} | ${f(r.diskMiB / r.fullS)} | ${r.load} |`,
  );
}
console.log(
  "\n| names | physical copy: create | file (B/event) | data directory | unpack | start | verify | unpack MiB/s (index on disk) | disk's sustained write MiB/s |",
);
console.log("|---|---|---|---|---|---|---|---|---|");
for (const r of results) {
  const c = r.cluster;
  console.log(
    `| ${r.names} | ${f(c.createS)} s | ${f(c.fileBytes / 2 ** 20)} MiB (${Math.round(c.fileBytes / r.events)}) | ${f(c.directoryBytes / 2 ** 20)} MiB | ${f(c.unpackSeconds)} s | ${f(c.startSeconds)} s | ${f(c.verifyS)} s | ${f(r.diskMiB / c.unpackSeconds)} | ${f(c.diskWriteBytesPerSecond / 2 ** 20)} |`,
  );
}
for (const r of results) {
  const run = {
    events: r.events,
    diskBytes: r.diskMiB * 2 ** 20,
    fileBytes: r.snapshotMiB * 2 ** 20,
    loadSeconds: r.loadS,
    postDataSeconds: r.postDataS,
    ponderIndexSeconds: r.ponderIndexS,
    tableRows: r.tableRows,
    fullVerifySeconds: r.fullS,
  };
  console.log(`${r.names} names: ${projectToMainnet(run)}`);
  console.log(`${r.names} names: ${projectClusterToMainnet(run, r.cluster)}`);
}
process.exit(0);
