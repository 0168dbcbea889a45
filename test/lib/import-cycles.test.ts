import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../support/indexer-harness";

/*
 * No two modules of src/ import each other, directly or round a longer circle, type-only imports included: a circle
 * means neither module can be read (or moved) without the other, and at run time one of them sees the other half
 * loaded. Relative imports only; packages cannot import back.
 */

const SOURCE = join(projectRoot, "src");
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+"(\.{1,2}\/[^"]+)"/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
}

function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  return [`${base}.ts`, join(base, "index.ts"), base].find((p) => existsSync(p) && statSync(p).isFile());
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SOURCE)) {
    const text = readFileSync(file, "utf8");
    const targets = [...text.matchAll(IMPORT)]
      .map((m) => resolveImport(file, m[1]!))
      .filter((t): t is string => t?.startsWith(SOURCE) === true);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Every circle, each once, as the list of its modules (relative to the project). */
function circles(graph: Map<string, string[]>): string[][] {
  const found = new Map<string, string[]>();
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    path.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === "open") {
        const circle = path.slice(path.indexOf(next)).map((f) => relative(projectRoot, f));
        found.set([...circle].sort().join(" "), circle);
      } else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(file, "done");
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return [...found.values()];
}

describe("src/ imports", () => {
  it("finds the imports it checks (the scan is not vacuous)", () => {
    const graph = importGraph();
    const edges = [...graph.values()].reduce((n, targets) => n + targets.length, 0);
    expect(graph.size).toBeGreaterThan(200);
    expect(edges).toBeGreaterThan(500);
  });

  it("form no circle", () => {
    expect(circles(importGraph()).map((c) => c.join(" → "))).toEqual([]);
  });
});
