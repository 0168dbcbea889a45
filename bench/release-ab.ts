/*
 * npm run bench:release-ab — two releases of nameindex (or of Ponder under it) indexing the same chains, interleaved:
 * the bench:scale devnet at each size, every plugin, on PostgreSQL and PGlite, and Ponder's own floor (every handler a
 * no-op, NAMEINDEX_NOOP_HANDLERS) with each release's Ponder, from process start to /ready.
 *
 *   AB_RELEASES="0.16.10=../rel-0.16,0.17.7=."   label=project directory, each with its own node_modules installed
 *                                                 (an earlier commit: `git archive <commit> | tar -x -C <dir>`, then
 *                                                 `npm install --ignore-scripts && node scripts/apply-patches.mjs`)
 *   AB_ROUNDS=3  BENCH_SIZES=10000,50000  BENCH_DBS=postgres,pglite  AB_KINDS=handlers,noop
 *   BENCH_PLUGINS=<all>  BENCH_TXS_PER_BLOCK=2000 (as bench:scale, whose cached chains it shares)
 *
 * The chains and the label service are this checkout's; each release indexes them with its own code and Ponder, on
 * the Node running this script (the project's: README, "Two commands"). Each round runs every release once per size,
 * database and kind, the order alternating between rounds, so a drift of the machine's load falls on both. Figures:
 * wall seconds, CPU seconds of the indexer's process tree plus, on PostgreSQL, its database's backends (the figure a
 * shared machine distorts least), peak RSS. Printed as medians with every round's value.
 *
 * RESOLVER_READS=false, as bench:scale: the cached chains answer no eth_call at a past block.
 */
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { startCachedDevnet } from "../harness/cached-devnet";
import { startIndexer } from "../harness/indexer-harness";
import { completedEventsByName, watchPeakRss } from "../scripts/lib/peak-rss";
import { PLUGIN_NAMES } from "../src/plugins/names";
import { median } from "./lib/median";
import { cpuReading, cpuSpentMs } from "./lib/process-cpu";

type Db = "postgres" | "pglite";
type Kind = "handlers" | "noop";

const releases = (process.env.AB_RELEASES ?? "").split(",").filter(Boolean).map(parseRelease);
if (releases.length < 2) throw new Error('AB_RELEASES needs two or more "label=directory" entries');
const ROUNDS = Number(process.env.AB_ROUNDS ?? 3);
const SIZES = (process.env.BENCH_SIZES ?? "10000").split(",").map(Number);
const DBS = (process.env.BENCH_DBS ?? "postgres,pglite").split(",") as Db[];
const KINDS = (process.env.AB_KINDS ?? "handlers,noop").split(",") as Kind[];
const PLUGINS = process.env.BENCH_PLUGINS?.split(",") ?? [...PLUGIN_NAMES];
const TXS_PER_BLOCK = Number(process.env.BENCH_TXS_PER_BLOCK ?? 2000);

function parseRelease(entry: string): { label: string; root: string } {
  const [label, dir] = entry.split("=");
  if (!label || !dir) throw new Error(`AB_RELEASES entry "${entry}" is not label=directory`);
  return { label, root: resolve(dir) };
}

interface Run {
  names: number;
  db: Db;
  kind: Kind;
  release: string;
  events: number;
  seconds: number;
  cpuSeconds: number;
  peakRssMb: number;
  load: string;
}

const load = () => loadavg()[0].toFixed(1);
const log = (line: string) => console.log(`[${new Date().toISOString().slice(11, 19)} load ${load()}] ${line}`);

async function indexOnce(
  release: { label: string; root: string },
  names: number,
  db: Db,
  kind: Kind,
  manifestPath: string,
  labelsServiceUrl: string,
): Promise<Run> {
  const started = Date.now();
  const indexer = await startIndexer({
    projectRoot: release.root,
    manifestPath,
    labelsServiceUrl,
    plugins: PLUGINS,
    database: db,
    extraEnv: { RESOLVER_READS: "false", ...(kind === "noop" ? { NAMEINDEX_NOOP_HANDLERS: "true" } : {}) },
  });
  const pid = indexer.process.child.pid!;
  const rss = watchPeakRss(pid, 500);
  const cpuAtStart = cpuReading(pid, indexer.schema);
  try {
    await indexer.process.ready(undefined, 200);
    const seconds = (Date.now() - started) / 1000;
    const cpu = cpuSpentMs(cpuAtStart, cpuReading(pid, indexer.schema));
    const events = Object.values(await completedEventsByName(indexer.url)).reduce((a, b) => a + b, 0);
    const run: Run = {
      names,
      db,
      kind,
      release: release.label,
      events,
      seconds,
      cpuSeconds: (cpu.tree + cpu.postgres) / 1000,
      peakRssMb: rss.stop(),
      load: load(),
    };
    log(
      `${release.label} ${names} ${db} ${kind}: ${events} events, ${seconds.toFixed(1)} s, CPU ${run.cpuSeconds.toFixed(1)} s, peak RSS ${run.peakRssMb.toFixed(0)} MiB`,
    );
    return run;
  } finally {
    rss.stop();
    await indexer.stop();
  }
}

function report(runs: Run[]): void {
  console.log("\nMedians over the rounds, every round's value after (CPU: indexer tree + PostgreSQL backends)");
  console.log(
    "| names | database | handlers | release | events | wall s | CPU s | peak RSS MiB | rounds: wall / CPU s |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  const groups = new Map<string, Run[]>();
  for (const r of runs) {
    const key = `${r.names}|${r.db}|${r.kind}|${r.release}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const medians = new Map<string, { wall: number; cpu: number }>();
  for (const [key, group] of groups) {
    const [names, db, kind, release] = key.split("|");
    const wall = median(group.map((r) => r.seconds));
    const cpu = median(group.map((r) => r.cpuSeconds));
    medians.set(key, { wall, cpu });
    const rounds = group.map((r) => `${r.seconds.toFixed(1)} / ${r.cpuSeconds.toFixed(1)}`).join(", ");
    console.log(
      `| ${names} | ${db} | ${kind === "noop" ? "no-op (floor)" : "ours"} | ${release} | ${group[0]!.events} | ${wall.toFixed(1)} | ${cpu.toFixed(1)} | ${median(group.map((r) => r.peakRssMb)).toFixed(0)} | ${rounds} |`,
    );
  }
  console.log("\nRatios of the medians (wall / CPU)");
  const [base, ...others] = releases;
  for (const names of SIZES)
    for (const db of DBS) {
      for (const release of releases) {
        const ours = medians.get(`${names}|${db}|handlers|${release.label}`);
        const floor = medians.get(`${names}|${db}|noop|${release.label}`);
        if (ours && floor)
          console.log(
            `${names} ${db} ${release.label}: ${(ours.wall / floor.wall).toFixed(2)}× / ${(ours.cpu / floor.cpu).toFixed(2)}× its Ponder's no-op floor`,
          );
      }
      for (const other of others)
        for (const kind of KINDS) {
          const a = medians.get(`${names}|${db}|${kind}|${base!.label}`);
          const b = medians.get(`${names}|${db}|${kind}|${other.label}`);
          if (a && b)
            console.log(
              `${names} ${db} ${kind}: ${other.label} takes ${(b.wall / a.wall).toFixed(2)}× / ${(b.cpu / a.cpu).toFixed(2)}× ${base!.label}'s`,
            );
        }
    }
}

async function main(): Promise<void> {
  log(
    `bench:release-ab — ${releases.map((r) => `${r.label} (${r.root})`).join(" vs ")}; sizes ${SIZES.join(", ")}; ${DBS.join(", ")}; ${KINDS.join(", ")}; ${ROUNDS} rounds; node ${process.version}`,
  );
  const runs: Run[] = [];
  for (const names of SIZES) {
    const env = await startCachedDevnet(1, names, TXS_PER_BLOCK, (line) => log(`devnet ${names}: ${line}`));
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? releases : [...releases].reverse();
        for (const db of DBS)
          for (const kind of KINDS)
            for (const release of order)
              runs.push(await indexOnce(release, names, db, kind, env.devnet.manifestPath, env.labelsUrl));
      }
    } finally {
      await env.stop();
    }
  }
  report(runs);
  console.log(`\nload average at the end ${load()} on 2 cores (a shared machine: compare medians and spreads)`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
