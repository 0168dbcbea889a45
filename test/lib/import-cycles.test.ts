import { relative } from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../../harness/indexer-harness";
import { importGraph, isSource } from "./import-graph";

/*
 * No two modules of src/ import each other, directly or round a longer circle, type-only imports included: a circle
 * means neither module can be read (or moved) without the other, and at run time one of them sees the other half
 * loaded. The imports are import-graph.ts's, those within src/.
 */

/** Every circle, each once, as the list of its modules (relative to the project). */
function circles(graph: Map<string, string[]>): string[][] {
  const found = new Map<string, string[]>();
  const state = new Map<string, "open" | "done">();
  const path: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    path.push(file);
    for (const next of (graph.get(file) ?? []).filter(isSource)) {
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
    const edges = [...graph.values()].reduce((n, targets) => n + targets.filter(isSource).length, 0);
    expect(graph.size).toBeGreaterThan(200);
    expect(edges).toBeGreaterThan(500);
  });

  it("form no circle", () => {
    expect(circles(importGraph()).map((c) => c.join(" → "))).toEqual([]);
  });
});
