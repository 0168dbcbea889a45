/*
 * npm run bench:patch-ab — what each dependency patch is worth: bench:index's PGlite run (10,000-name devnet, start →
 * /ready) with every patch, against the same run with some patches left out, interleaved on one devnet.
 *
 *   AB_VARIANTS="isValueMatched-lowercase-once,graphql-load-on-first-use"   (the default: all of them
 *     one at a time) — each entry is a variant without those patches ("a+b": without both; "none": without any)
 *   AB_ROUNDS=3  BENCH_NAMES=10000  BENCH_PLUGINS=subgraph  AB_RUN=pglite|postgres|noop
 *   AB_PATCHES_DIR=<dir>: build the variants from that directory's patch files instead of patches/ (e.g. an earlier
 *     commit's set, `git archive <commit> patches | tar -x -C <dir>`, to compare it with today's)
 *   AB_COMMITS=<commit>,…: also run each commit's code (its `git archive`) on this checkout's installed, fully
 *     patched packages: what a change to handlers or the schema costs indexing. With it, AB_VARIANTS defaults to none.
 *
 * Every variant is a copy of the project in a temporary folder whose node_modules links to this one's, except for
 * the patched packages: those are copied, unpatched (the installed patches reversed), and patched again without the
 * variant's patches. A variant whose remaining patches do not apply without the ones it leaves out is reported and
 * skipped. Figures: wall time to /ready and the CPU time of `ponder start` (user + system, from /proc), whose
 * spread on a shared machine is smaller than the wall time's.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { startDevnetWithLabels } from "../harness/devnet-fixture";
import { projectRoot, startIndexer, waitFor } from "../harness/indexer-harness";
// @ts-expect-error plain JavaScript module (npm's postinstall runs it before TypeScript is available)
import { readPatches } from "../scripts/lib/patches.mjs";
import { completedEventsByName, watchPeakRss } from "../scripts/lib/peak-rss";
import { type IndexRunKind, indexRunOptions } from "./lib/index-run-kind";
import { processCpuMs } from "./lib/process-cpu";

interface PatchFile {
  fileName: string;
  path: string;
  pkg: string;
  name: string;
}

/** The installed patches (reversed to get the unpatched packages). */
const installed = readPatches(join(projectRoot, "patches")) as PatchFile[];
/** The patches the variants are built from: these, or another set (AB_PATCHES_DIR, e.g. an older commit's). */
const patches = (process.env.AB_PATCHES_DIR ? readPatches(process.env.AB_PATCHES_DIR) : installed) as PatchFile[];
const commits = (process.env.AB_COMMITS ?? "").split(",").filter(Boolean);
const variants = (process.env.AB_VARIANTS ?? (commits.length > 0 ? "" : patches.map((p) => p.name).join(",")))
  .split(",")
  .filter(Boolean);
const rounds = Number(process.env.AB_ROUNDS ?? 3);
const names = Number(process.env.BENCH_NAMES ?? 10_000);
const plugins = (process.env.BENCH_PLUGINS ?? "subgraph").split(",");
const run = (process.env.AB_RUN ?? "pglite") as IndexRunKind;
const packages = [...new Set([...installed, ...patches].map((p) => p.pkg))];

/** Path components to strip from `a/node_modules/<pkg>/...` to get a path inside the package. */
const strip = (pkg: string) => 2 + pkg.split("/").length;

/**
 * A patch's text without git's `index` lines: the patches' all-zero blob ids (`index 0000000..0000000`) make GNU
 * patch take each file for a new one, which it then will not reverse ("would create the file …, which already exists").
 */
const patchText = (patch: PatchFile) => readFileSync(patch.path, "utf8").replace(/^index .*\n/gm, "");

function applyPatch(dir: string, patch: PatchFile, reverse: boolean): boolean {
  const args = [`-p${strip(patch.pkg)}`, "--batch", "--silent", "--no-backup-if-mismatch", "-d", dir];
  if (reverse) args.unshift("-R");
  const input = patchText(patch);
  try {
    execFileSync("patch", ["--dry-run", ...args], { stdio: "pipe", input });
    execFileSync("patch", args, { stdio: "pipe", input });
    return true;
  } catch {
    return false;
  }
}

/** The patched packages, unpatched, once per run of this script. */
function pristinePackages(workDir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const pkg of packages) {
    const dir = join(workDir, "pristine", pkg);
    cpSync(join(projectRoot, "node_modules", pkg), dir, { recursive: true, verbatimSymlinks: true });
    for (const patch of installed.filter((p) => p.pkg === pkg).reverse()) {
      if (!applyPatch(dir, patch, true))
        throw new Error(
          `cannot reverse ${patch.fileName} on the installed ${pkg}: reinstall it (rm -rf node_modules/${pkg} && npm install)`,
        );
    }
    out.set(pkg, dir);
  }
  return out;
}

/** A copy of the project running the installed packages, except the patched ones, patched without `left`. */
function buildVariant(
  workDir: string,
  label: string,
  left: Set<string>,
  pristine: Map<string, string>,
): { root: string } | { error: string } {
  const root = join(workDir, label);
  for (const entry of readdirSync(projectRoot)) {
    if (["node_modules", ".git", ".cache", ".ponder", ".devnet", "test-artifacts", "patches"].includes(entry)) continue;
    cpSync(join(projectRoot, entry), join(root, entry), { recursive: true });
  }
  symlinkSync(join(projectRoot, ".cache"), join(root, ".cache"));
  const modules = join(root, "node_modules");
  mkdirSync(join(modules, ".bin"), { recursive: true });
  const scopes = new Set(packages.filter((p) => p.startsWith("@")).map((p) => p.split("/")[0]!));
  for (const entry of readdirSync(join(projectRoot, "node_modules"))) {
    if (entry === ".bin" || packages.includes(entry)) continue;
    if (scopes.has(entry)) {
      mkdirSync(join(modules, entry));
      for (const sub of readdirSync(join(projectRoot, "node_modules", entry))) {
        if (!packages.includes(`${entry}/${sub}`))
          symlinkSync(join(projectRoot, "node_modules", entry, sub), join(modules, entry, sub));
      }
      continue;
    }
    symlinkSync(join(projectRoot, "node_modules", entry), join(modules, entry));
  }
  for (const pkg of packages) {
    const dir = join(modules, pkg);
    cpSync(pristine.get(pkg)!, dir, { recursive: true, verbatimSymlinks: true });
    for (const patch of patches.filter((p) => p.pkg === pkg && !left.has(p.name))) {
      if (!applyPatch(dir, patch, false))
        return { error: `${patch.fileName} does not apply without ${[...left].join(" + ")}` };
    }
  }
  symlinkSync("../ponder/dist/esm/bin/ponder.js", join(modules, ".bin", "ponder"));
  return { root };
}

/** `commit`'s files (git archive) running this checkout's node_modules, patched as installed. */
function buildCommit(workDir: string, commit: string): string {
  const root = join(workDir, `commit-${commit}`);
  mkdirSync(root, { recursive: true });
  execFileSync("sh", ["-c", `git -C "${projectRoot}" archive "${commit}" | tar -x -C "${root}"`], { stdio: "pipe" });
  symlinkSync(join(projectRoot, ".cache"), join(root, ".cache"));
  symlinkSync(join(projectRoot, "node_modules"), join(root, "node_modules"));
  return root;
}

/** Commits from 6134ef1 until Ponder's root came back to the project root kept it in ponder/ (`ponder --root ponder`). */
function ponderRootOf(root: string): string | undefined {
  return existsSync(join(root, "ponder", "ponder.config.ts")) ? "ponder" : undefined;
}

/** User + system CPU seconds of a live process (its threads included). */
const cpuSeconds = (pid: number): number => processCpuMs(pid) / 1000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? NaN;

async function main(): Promise<void> {
  const unknown = variants
    .flatMap((v) => v.split("+"))
    .filter((n) => n !== "all" && n !== "none" && !patches.some((p) => p.name === n));
  if (unknown.length > 0)
    throw new Error(`no patch named ${unknown.join(", ")} (names: ${patches.map((p) => p.name).join(", ")})`);
  const workDir = mkdtempSync(join(tmpdir(), "nameindex-patch-ab-"));
  const roots = new Map<string, string>();
  try {
    const pristine = pristinePackages(workDir);
    for (const [index, label] of ["all", ...variants.filter((v) => v !== "all")].entries()) {
      const left = new Set(label === "none" ? patches.map((p) => p.name) : label === "all" ? [] : label.split("+"));
      const built = buildVariant(workDir, `variant-${index}`, left, pristine);
      if ("root" in built) roots.set(label, built.root);
      else console.log(`skipped "${label}": ${built.error}`);
    }
    for (const commit of commits) roots.set(`commit ${commit}`, buildCommit(workDir, commit));
    console.log(
      `bench:patch-ab — ${names} names, ${run} run, ${rounds} rounds of ${[...roots.keys()].join(", ")}; load ${loadavg()[0].toFixed(1)}`,
    );
    const env = await startDevnetWithLabels({ seed: 1, names });
    const results = new Map<
      string,
      { seconds: number; cpu: number; rss: number; events: number; bytes: number | null }[]
    >();
    try {
      const labels = [...roots.keys()];
      // Warm-up: each copy's first start builds its Vite cache (.ponder/vite) and reads its files cold; start each once
      // up to its HTTP server, unmeasured.
      for (const label of labels) {
        const indexer = await startIndexer({
          ...indexRunOptions(env, plugins, "pglite"),
          projectRoot: roots.get(label)!,
          ponderRoot: ponderRootOf(roots.get(label)!),
        });
        try {
          await waitFor(
            async () => (await fetch(`${indexer.url}/health`).catch(() => undefined))?.status === 200,
            300_000,
            `${label} /health`,
          );
        } finally {
          await indexer.stop();
        }
      }
      for (let round = 0; round < rounds; round++) {
        // Rotate the order each round, so no variant always runs first (or after the same one).
        const order = labels.map((_, i) => labels[(i + round) % labels.length]!);
        for (const label of order) {
          const started = Date.now();
          const indexer = await startIndexer({
            ...indexRunOptions(env, plugins, run),
            projectRoot: roots.get(label)!,
            ponderRoot: ponderRootOf(roots.get(label)!),
          });
          const pid = indexer.process.child.pid!;
          const rss = watchPeakRss(pid, 500);
          try {
            await indexer.process.ready(undefined, 200);
            const seconds = (Date.now() - started) / 1000;
            const cpu = cpuSeconds(pid);
            const events = Object.values(await completedEventsByName(indexer.url)).reduce((a, b) => a + b, 0);
            const bytes = await indexBytes(indexer);
            const sample = { seconds, cpu, rss: rss.stop(), events, bytes };
            results.set(label, [...(results.get(label) ?? []), sample]);
            console.log(
              `round ${round + 1} ${label}: ${seconds.toFixed(1)} s, CPU ${cpu.toFixed(1)} s, ${events} events, load ${loadavg()[0].toFixed(1)}`,
            );
          } finally {
            rss.stop();
            await indexer.stop();
          }
        }
      }
    } finally {
      await env.stop();
    }
    const base = results.get("all") ?? [];
    console.log(
      "\n| variant | wall s (each run) | median | CPU s (each run) | median | Δ CPU vs all | peak RSS MiB | events | index MiB |",
    );
    console.log("|---|---|---|---|---|---|---|---|---|");
    for (const [label, samples] of results) {
      const delta =
        label === "all" ? "—" : `${(median(samples.map((s) => s.cpu)) - median(base.map((s) => s.cpu))).toFixed(1)}`;
      console.log(
        `| ${label === "all" ? "all patches" : label.startsWith("commit ") ? label : `without ${label}`} | ${samples.map((s) => s.seconds.toFixed(1)).join(", ")} | ${median(samples.map((s) => s.seconds)).toFixed(1)} | ${samples.map((s) => s.cpu.toFixed(1)).join(", ")} | ${median(samples.map((s) => s.cpu)).toFixed(1)} | ${delta} | ${median(samples.map((s) => s.rss)).toFixed(0)} | ${samples[0]!.events} | ${
          samples[0]!.bytes === null ? "—" : (samples[0]!.bytes / 2 ** 20).toFixed(1)
        } |`,
      );
    }
    console.log(
      `\nload average at the end ${loadavg()[0].toFixed(1)} on 2 cores (a shared machine: compare rows of one run)`,
    );
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

/**
 * On PostgreSQL, the bytes of the index's own schema (its tables, indexes and TOAST; Ponder's sync store apart), read
 * once it is ready; null on PGlite, whose files hold the sync store too.
 */
async function indexBytes(indexer: { env: NodeJS.ProcessEnv; schema: string }): Promise<number | null> {
  if (!indexer.env.DATABASE_URL) return null;
  const client = new pg.Client({ connectionString: indexer.env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ bytes: string }>(
      `select coalesce(sum(pg_total_relation_size(c.oid)), 0)::text as bytes
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = $1 and c.relkind in ('r', 'm')`,
      [indexer.schema],
    );
    return Number(rows[0]!.bytes);
  } finally {
    await client.end();
  }
}
