/*
 * npm run bench:profile -- <file.cpuprofile> [more…] — where a V8 CPU profile's time went, by layer: the share of
 * sampled time each layer spent in its own code (self time), then the functions with the most self time. Profiles
 * come from bench:scale with BENCH_CPU_PROF=<dir> (the backfill's is the first file of each run). Several files are
 * summed.
 *
 *   PROFILE_TOP=25: how many functions to list.
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** First matching rule names the layer; order matters (specific before general). */
const LAYERS: [string, (url: string, fn: string) => boolean][] = [
  ["idle (waiting on I/O: the database, the RPC)", (_u, f) => f === "(idle)"],
  ["garbage collection", (_u, f) => f === "(garbage collector)"],
  ["V8 and native (program)", (_u, f) => f === "(program)" || f === "(root)"],
  [
    "Ponder: row cache and store (indexing-store, copy)",
    (u) => /ponder\/(src|dist\/esm)\/(indexing-store\/|utils\/copy\.|drizzle\/)/.test(u),
  ],
  ["Ponder: per-event dispatch (indexing)", (u) => /ponder\/(src|dist\/esm)\/indexing\//.test(u)],
  [
    "Ponder: sync (RPC fetching, matching logs to filters)",
    (u) =>
      /ponder\/(src|dist\/esm)\/(sync|sync-historical|sync-realtime|rpc)\/|ponder\/(src|dist\/esm)\/(utils\/lowercase\.|runtime\/filter\.)/.test(
        u,
      ),
  ],
  [
    "Ponder: event extraction and decoding (runtime, sync-store)",
    (u) => /ponder\/(src|dist\/esm)\/(runtime|sync-store)\//.test(u),
  ],
  ["Ponder: other (database layer, utils)", (u) => /ponder\/(src|dist\/esm)\//.test(u)],
  ["viem and abitype (ABI decoding, hex, hashing)", (u) => /node_modules\/(viem|abitype|ox)\//.test(u)],
  ["keccak (@noble/hashes)", (u) => u.includes("@noble/hashes")],
  ["drizzle-orm (SQL building, result rows)", (u) => u.includes("drizzle-orm")],
  [
    "PostgreSQL driver (pg, pg-protocol)",
    (u) => /node_modules\/(pg|pg-protocol|pg-types|pg-pool|pg-copy-streams)\//.test(u),
  ],
  ["PGlite (wasm PostgreSQL)", (u) => u.includes("@electric-sql/pglite")],
  ["metrics (prom-client)", (u) => u.includes("node_modules/prom-client/")],
  ["start-up build (vite, esbuild, rollup)", (u) => /node_modules\/(vite|vite-node|rollup|esbuild)\//.test(u)],
  ["ENS normalization (@adraffy/ens-normalize)", (u) => u.includes("@adraffy")],
  ["ours: label healing", (u) => /\/src\/lib\/healing\//.test(u) || u.includes("labels-service/src/keccak")],
  ["ours: indexed_log writer", (u) => u.includes("/src/plugins/shared/indexed-log.ts")],
  ["ours: kept list counts", (u) => /\/src\/(lib|plugins\/shared)\/list-counts\.ts/.test(u)],
  [
    "ours: name references",
    (u) => /\/src\/(lib|plugins\/shared)\/name-references\.ts/.test(u) || u.includes("registry-fallback"),
  ],
  ["ours: ensv2 handlers", (u) => u.includes("/src/plugins/ensv2/")],
  ["ours: other handlers (src/plugins)", (u) => u.includes("/src/plugins/")],
  ["ours: src/lib", (u) => u.includes("/src/lib/")],
  ["ours: other src", (u) => /\/work\/[^/]+\/src\//.test(u) && !u.includes("node_modules")],
  ["Node.js and V8 built-ins (socket writes, buffers, JSON, microtasks)", (u) => u.startsWith("node:") || u === ""],
  ["other dependencies", () => true],
];

/**
 * Time under a frame, whatever it called. V8's profile does not join an async function's continuations to its
 * caller, so only synchronous work is listed here.
 */
const INCLUSIVE: [string, (url: string, fn: string) => boolean][] = [
  ["Ponder: decoding logs (decodeEvents)", (_u, f) => f === "decodeEvents"],
  ["Ponder: building events from block data (buildEvents)", (_u, f) => f === "buildEvents"],
  ["Ponder: rows to COPY text at a flush (getCopyText)", (_u, f) => f === "getCopyText"],
  [
    "Ponder: the store's row copies (copy, copyOnWrite)",
    (u, f) => (f === "copy" || f === "copyOnWrite") && u.includes("utils/copy"),
  ],
  ["Ponder: matching fetched logs to filters (isLogFilterMatched)", (_u, f) => f === "isLogFilterMatched"],
  ["label healing (src/lib/healing)", (u) => u.includes("src/lib/healing/")],
];

function layerOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  return LAYERS.find(([, match]) => match(url, functionName))![0];
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: npm run bench:profile -- <file.cpuprofile> [more…]");
  process.exit(2);
}
const byLayer = new Map<string, number>();
const byInclusive = new Map<string, number>();
const byFunction = new Map<string, number>();
let total = 0;
for (const file of files) {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // Which INCLUSIVE labels each node's stack holds (computed once per node).
  const under = new Map<number, Set<string>>();
  const labelsOf = (id: number): Set<string> => {
    let set = under.get(id);
    if (set) return set;
    const up = parent.get(id);
    set = new Set(up === undefined ? [] : labelsOf(up));
    const { url, functionName } = nodes.get(id)!.callFrame;
    for (const [label, match] of INCLUSIVE) if (match(url, functionName)) set.add(label);
    under.set(id, set);
    return set;
  };
  for (let i = 0; i < profile.samples.length; i++) {
    const node = nodes.get(profile.samples[i]!)!;
    const us = profile.timeDeltas[i] ?? 0;
    total += us;
    for (const label of labelsOf(node.id)) byInclusive.set(label, (byInclusive.get(label) ?? 0) + us);
    const layer = layerOf(node);
    byLayer.set(layer, (byLayer.get(layer) ?? 0) + us);
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url.replace(/^.*node_modules\//, "").replace(/^file:\/\/\/work\/[^/]+\//, "");
    const key = `${functionName || "(anonymous)"} ${where}:${lineNumber + 1}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  }
}

const busy = total - (byLayer.get(LAYERS[0]![0]) ?? 0);
const pct = (us: number, of: number) => `${((100 * us) / of).toFixed(1)} %`;
console.log(`${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy\n`);
console.log("| layer | self s | of the busy time |\n|---|---|---|");
for (const [layer, us] of [...byLayer].sort((a, b) => b[1] - a[1]))
  console.log(`| ${layer} | ${(us / 1e6).toFixed(2)} | ${layer.startsWith("idle") ? "—" : pct(us, busy)} |`);
console.log("\n| synchronous work under | total s | of the busy time |\n|---|---|---|");
for (const [label] of INCLUSIVE) {
  const us = byInclusive.get(label) ?? 0;
  console.log(`| ${label} | ${(us / 1e6).toFixed(2)} | ${pct(us, busy)} |`);
}
console.log("\n| function | self s | of the busy time |\n|---|---|---|");
for (const [fn, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.PROFILE_TOP ?? 25)))
  console.log(`| ${fn} | ${(us / 1e6).toFixed(2)} | ${pct(us, busy)} |`);
