import { describe, expect, it } from "vitest";
import { importEdges, importGraph } from "./import-graph";

/*
 * Tests, benchmarks and the rehearsal share their helpers through harness/ and nothing else (docs/architecture.md,
 * "Where the rest lives"): none of test/, bench/, rehearsal/ imports another, and harness/ imports none of them, so a
 * change to a test's helper cannot break a benchmark nobody ran. An import across fails here, naming both files.
 */

type Edge = { from: string; to: string };

/** The folders that may import harness/ but not each other. */
const APART = ["test", "bench", "rehearsal"] as const;

const folderOf = (path: string) => path.split("/")[0]!;
const isApart = (folder: string) => (APART as readonly string[]).includes(folder);

/** Every import across the folders, as `from → to`. */
function crossings(edges: Edge[]): string[] {
  return edges
    .filter((e) => {
      const from = folderOf(e.from);
      const to = folderOf(e.to);
      return from !== to && isApart(to) && (isApart(from) || from === "harness");
    })
    .map((e) => `${e.from} → ${e.to}`);
}

describe("test/, bench/ and rehearsal/ share only harness/", () => {
  const edges = importEdges(importGraph([...APART, "harness"], true));

  it("reads the imports it checks (the scan is not vacuous)", () => {
    for (const folder of APART) {
      expect(edges.some((e) => folderOf(e.from) === folder && folderOf(e.to) === "harness")).toBe(true);
    }
    expect(edges.some((e) => folderOf(e.from) === "harness" && folderOf(e.to) === "harness")).toBe(true);
  });

  it("catches an import across", () => {
    const across: Edge[] = [
      { from: "bench/scale.ts", to: "test/support/one-at-a-time.ts" },
      { from: "rehearsal/run.ts", to: "test/e2e/subgraph-compare.ts" },
      { from: "test/e2e/x.test.ts", to: "rehearsal/src/snapshot-run.ts" },
      { from: "test/omnigraph/x.test.ts", to: "bench/lib/subgraph-queries.ts" },
      { from: "harness/indexer-harness.ts", to: "test/support/ponder-common.ts" },
    ];
    expect(across.map((e) => crossings([e]).length)).toEqual(across.map(() => 1));
    expect(crossings([{ from: "bench/scale.ts", to: "harness/indexer-harness.ts" }])).toEqual([]);
  });

  it("has none", () => {
    expect(crossings(edges)).toEqual([]);
  });
});
