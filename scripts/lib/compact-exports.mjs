// A package's `exports` map rewritten into the same map with one subpath pattern: every entry `./x` whose targets are
// its own path with suffixes (`./x.js`, `./x.d.ts`, `./x.cjs`…) becomes `./*`, the others stay as they are.
//
// Why: Node.js 24 reads the package.json of a module's package again for every ES module it loads from it (to learn
// the module's format), and drizzle-orm's (175 KB, 439 entries) made its 382 modules cost ~1.5 s of CPU to load, ~0.4 s
// under the compacted 26 KB one (Node 22: 0.77 s with the original). Every `ponder start`, `ponder serve` and
// test worker loads them. docs/patches.md, "drizzle-orm's exports map", has the measurements.
//
// The rewrite changes no answer: for every entry of the original map, the pattern's value with the entry's name put
// in for `*` equals the entry's value, leaf by leaf, so every condition (import, require, types, default) resolves to
// the same file. A map for which that does not hold is left as it is.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The pattern's value for `./*`, taken from the first entry whose targets all carry its own path; or undefined. */
function patternOf(exports) {
  for (const [key, value] of Object.entries(exports)) {
    if (!key.startsWith("./") || key.includes("*") || key === "./") continue;
    const path = key.slice(1); // "/x"
    let regular = true;
    const pattern = mapLeaves(value, (target) => {
      if (typeof target !== "string" || !target.startsWith(`.${path}`)) regular = false;
      return typeof target === "string" ? `./*${target.slice(path.length + 1)}` : target;
    });
    if (regular) return pattern;
  }
  return undefined;
}

function mapLeaves(value, f) {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return f(value);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapLeaves(v, f)]));
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** The entry's value as the pattern gives it: `*` replaced by the entry's name. */
const expand = (pattern, key) =>
  mapLeaves(pattern, (target) => (typeof target === "string" ? target.replace("*", key.slice(2)) : target));

/**
 * The compacted map, or undefined when it would not be smaller or not give the same answers. Entries the pattern
 * does not give (a directory's `./x` → `./x/index.js`, `.`) are kept, and being exact they win over the pattern.
 */
export function compactExports(exports) {
  if (exports === null || typeof exports !== "object" || Array.isArray(exports)) return undefined;
  if (Object.keys(exports).some((key) => key.includes("*"))) return undefined;
  const pattern = patternOf(exports);
  if (!pattern) return undefined;
  const compacted = {};
  let covered = 0;
  for (const [key, value] of Object.entries(exports)) {
    if (key.startsWith("./") && same(expand(pattern, key), value)) covered++;
    else compacted[key] = value;
  }
  if (covered < 2) return undefined;
  compacted["./*"] = pattern;
  for (const [key, value] of Object.entries(exports)) {
    const answer = key in compacted && key !== "./*" ? compacted[key] : expand(pattern, key);
    if (!same(answer, value)) return undefined;
  }
  return compacted;
}

/** Rewrites `node_modules/<pkg>/package.json`'s exports in place; returns its size before and after, or undefined. */
export function compactInstalledExports(root, pkg) {
  const file = join(root, "node_modules", pkg, "package.json");
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const manifest = JSON.parse(text);
  const compacted = compactExports(manifest.exports);
  if (!compacted) return undefined;
  const after = `${JSON.stringify({ ...manifest, exports: compacted }, null, 2)}\n`;
  writeFileSync(file, after);
  return { before: Buffer.byteLength(text), after: Buffer.byteLength(after) };
}
