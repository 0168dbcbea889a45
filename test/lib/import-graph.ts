import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { projectRoot } from "../../harness/indexer-harness";

/*
 * Relative imports, as the import tests read them (src/'s, or those of other top-level folders): `import … from`,
 * `export … from`, `import "…"` and `import("…")`, type-only ones included (a type import ties two modules as much as a
 * value import does). Packages are left out: they cannot import back.
 */

const SOURCE = join(projectRoot, "src");
const SPECIFIER = String.raw`"(\.{1,2}(?:\/[^"]*)?)"`;
const IMPORTS = [
  new RegExp(String.raw`(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+${SPECIFIER}`, "g"),
  new RegExp(String.raw`(?:^|\n)\s*import\s+${SPECIFIER}`, "g"),
  new RegExp(String.raw`\bimport\(\s*${SPECIFIER}\s*\)`, "g"),
];

function sourceFiles(dir: string, withTests: boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path, withTests);
    return /\.ts$/.test(name) && (withTests || !/\.test\.ts$/.test(name)) ? [path] : [];
  });
}

function resolveImport(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  return [`${base}.ts`, join(base, "index.ts"), base].find((p) => existsSync(p) && statSync(p).isFile());
}

/**
 * Every module (absolute path) under the folders given (project-relative; src/ unless named) and the files it imports
 * (absolute; outside those folders too). Test files count only `withTests`.
 */
export function importGraph(folders = ["src"], withTests = false): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of folders.flatMap((folder) => sourceFiles(join(projectRoot, folder), withTests))) {
    const text = readFileSync(file, "utf8");
    const targets = IMPORTS.flatMap((pattern) => [...text.matchAll(pattern)])
      .map((m) => resolveImport(file, m[1]!))
      .filter((t): t is string => t !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The graph's imports as project-relative paths (`src/lib/ids.ts`, `ponder.schema.ts`). */
export function importEdges(graph = importGraph()): { from: string; to: string }[] {
  return [...graph].flatMap(([from, targets]) =>
    targets.map((to) => ({ from: relative(projectRoot, from), to: relative(projectRoot, to) })),
  );
}

export function isSource(path: string): boolean {
  return path.startsWith(SOURCE);
}
