import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../harness/indexer-harness";
// @ts-expect-error plain JavaScript module (npm's postinstall runs it before TypeScript is available)
import { compactExports, compactInstalledExports } from "../../scripts/lib/compact-exports.mjs";

/*
 * The postinstall's rewrite of drizzle-orm's exports map (scripts/lib/compact-exports.mjs): the same answers from a map
 * an eighth of the size. Checked here by Node's own resolver, import and require, on a package shaped as drizzle-orm.
 */

const temporary: string[] = [];
afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});

/** drizzle-orm's shape: a file entry `./x` → `./x.js` / `./x.cjs` / types, a directory's `./d` → `./d/index.…`. */
const entry = (base: string) => ({
  import: { types: `${base}.d.ts`, default: `${base}.js` },
  require: { types: `${base}.d.cts`, default: `${base}.cjs` },
  types: `${base}.d.ts`,
  default: `${base}.js`,
});
const FILES = ["alias", "column", "sql/sql", "pg-core/table"];
const DIRS = ["pg-core", "sql"];
const EXPORTS = {
  ".": entry("./index"),
  ...Object.fromEntries(FILES.map((f) => [`./${f}`, entry(`./${f}`)])),
  ...Object.fromEntries(DIRS.map((d) => [`./${d}`, entry(`./${d}/index`)])),
};

function fakePackage(exports: unknown): string {
  const root = mkdtempSync(join(tmpdir(), "nameindex-compact-exports-"));
  temporary.push(root);
  const dir = join(root, "node_modules", "fakeorm");
  for (const base of ["index", ...FILES, ...DIRS.map((d) => `${d}/index`)]) {
    mkdirSync(join(dir, base, ".."), { recursive: true });
    writeFileSync(join(dir, `${base}.js`), `export const which = "${base}.js";\n`);
    writeFileSync(join(dir, `${base}.cjs`), `exports.which = "${base}.cjs";\n`);
  }
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "fakeorm", type: "module", exports }, null, 2));
  return root;
}

/** Every subpath of the original map, resolved and loaded by Node, with import and with require. */
function resolveAll(root: string): string {
  const script = `
    import { createRequire } from "node:module";
    const require = createRequire(process.cwd() + "/x.js");
    const out = [];
    for (const spec of ${JSON.stringify(Object.keys(EXPORTS).map((k) => `fakeorm${k.slice(1)}`))}) {
      out.push(spec, (await import(spec)).which, require(spec).which, import.meta.resolve(spec).split("node_modules")[1]);
    }
    console.log(JSON.stringify(out));`;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: root, encoding: "utf8" });
  expect(run.stderr).toBe("");
  return run.stdout;
}

describe("drizzle-orm's exports map, compacted at install", () => {
  it("answers every subpath as the original map does, from one pattern and the directories' entries", () => {
    const root = fakePackage(EXPORTS);
    const before = resolveAll(root);
    const file = join(root, "node_modules", "fakeorm", "package.json");
    const sizes = compactInstalledExports(root, "fakeorm");
    expect(sizes.after).toBeLessThan(sizes.before);
    const { exports } = JSON.parse(readFileSync(file, "utf8"));
    expect(Object.keys(exports).sort()).toEqual([".", "./*", "./pg-core", "./sql"]);
    expect(resolveAll(root)).toBe(before);
    // A second run finds it compact and leaves it.
    expect(compactInstalledExports(root, "fakeorm")).toBeUndefined();
  });

  it("keeps an entry the pattern does not give, and leaves a map without a common pattern alone", () => {
    const odd = { ...EXPORTS, "./legacy": "./dist/old.js" };
    const compacted = compactExports(odd);
    expect(compacted["./legacy"]).toBe("./dist/old.js");
    expect(compacted["./*"]).toEqual(entry("./*"));
    expect(compactExports({ ".": "./index.js", "./a": "./lib/a.js", "./b": "./other/b.js" })).toBeUndefined();
    expect(compactExports({ "./a": entry("./a"), "./b/*": "./b/*.js" })).toBeUndefined();
    expect(compactExports("./index.js")).toBeUndefined();
  });

  it("is in the installed drizzle-orm, which still loads", () => {
    const dir = join(projectRoot, "node_modules", "drizzle-orm");
    expect(statSync(join(dir, "package.json")).size).toBeLessThan(40_000);
    const { exports } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    expect(exports["./*"]).toEqual(entry("./*"));
    const run = spawnSync(
      process.execPath,
      ["--input-type=module", "-e", 'const m = await import("drizzle-orm/pg-core"); console.log(typeof m.pgTable)'],
      { cwd: projectRoot, encoding: "utf8" },
    );
    expect(run.stdout.trim()).toBe("function");
  });
});
