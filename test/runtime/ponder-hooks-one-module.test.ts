import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../../harness/indexer-harness";

/*
 * docs/maintainers.md, "Ponder hooks the app relies on": the app meets Ponder's patch hooks and internal globals in
 * src/runtime/ponder-hooks.ts alone, so that dropping one there makes the compiler list every use. The names below are
 * that table's; any other file of src/, ponder.config.ts or ponder.schema.ts naming one fails here.
 */

const HOOKS = [
  "ponder.api.nodeFastPath",
  "PONDER_KEY_DERIVATIONS",
  "nameindex.refusesRestart",
  "->>'indexing_error'",
  "nameindex.pgliteInstance",
  "NAMEINDEX_BACKFILL_BATCH",
  "nameindex:insertOnly",
  "NAMEINDEX_RPC_INITIAL_RPS",
  "PONDER_COMMON",
  "PONDER_NAMESPACE_BUILD",
  "PONDER_DATABASE",
];

const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.ts$/.test(name) ? [path] : [];
  });

describe("Ponder's hooks", () => {
  it("are named only in src/runtime/ponder-hooks.ts", () => {
    const checked = [
      ...files(join(projectRoot, "src")),
      join(projectRoot, "ponder.config.ts"),
      join(projectRoot, "ponder.schema.ts"),
    ];
    const named = checked
      .filter((f) => relative(projectRoot, f) !== "src/runtime/ponder-hooks.ts")
      .flatMap((f) => {
        const text = readFileSync(f, "utf8");
        return HOOKS.filter((hook) => text.includes(hook)).map((hook) => `${relative(projectRoot, f)}: ${hook}`);
      });
    expect(checked.length).toBeGreaterThan(200);
    expect(named).toEqual([]);
  });
});
