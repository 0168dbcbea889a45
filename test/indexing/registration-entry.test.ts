import { createRequire } from "node:module";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { projectRoot } from "../../harness/indexer-harness";
import { fullDevnet, writeManifest } from "../config/fixtures";

/*
 * Ponder executes every file under src/ outside src/api/ (node_modules/ponder/dist/esm/build/index.js,
 * executeIndexingFunctions: glob `src/**\/*.{js,mjs,ts,mts}` ignoring `src/api/**\/*.{js,mjs,ts,mts}`), in glob order,
 * and hashes each file's text into its build id. So exactly one of them, src/index.ts, may register anything:
 * importing any other must register no handler, no row-key derivation, and start nothing (no timer, no request).
 * Otherwise what runs would depend on which files exist rather than on the active plugins.
 */

const registered = vi.hoisted(() => [] as string[]);
// Ponder's virtual registry as its Vite plugin defines it (build/plugin.js), recording the names registered.
vi.mock("ponder:registry", () => ({
  ponder: {
    fns: [],
    on(name: string) {
      registered.push(name);
    },
  },
}));
vi.mock("ponder:schema", async () => await import("../../ponder.schema"));

/** The files Ponder executes, found by Ponder's own glob with Ponder's own patterns. */
function filesPonderExecutes(): string[] {
  const requireFromPonder = createRequire(join(projectRoot, "node_modules", "ponder", "package.json"));
  const { glob } = requireFromPonder("glob") as typeof import("glob");
  const indexingDir = join(projectRoot, "src");
  return glob
    .sync(join(indexingDir, "**/*.{js,mjs,ts,mts}"), { ignore: join(indexingDir, "api", "**/*.{js,mjs,ts,mts}") })
    .map((file) => relative(projectRoot, file))
    .sort();
}

const keyDerivations = () =>
  Object.keys((globalThis as { PONDER_KEY_DERIVATIONS?: Record<string, unknown> }).PONDER_KEY_DERIVATIONS ?? {});
const finalityWatchStarted = () => (globalThis as Record<symbol, unknown>)[Symbol.for("nameindex.finalityGuard")];

describe("the one registration entry", () => {
  const files = filesPonderExecutes();
  const fetch = vi.fn(async () => {
    throw new Error("no network in this test");
  });

  afterAll(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.unstubAllEnvs();
  });

  it("is src/index.ts, among the files Ponder executes (all of src/ but src/api/)", () => {
    expect(files).toContain("src/index.ts");
    expect(files).toContain("src/indexing/register.ts");
    expect(files.filter((f) => f.startsWith("src/api/"))).toEqual([]);
    expect(files.length).toBeGreaterThan(100);
  });

  it("importing every other file registers nothing and starts nothing", async () => {
    vi.stubGlobal("fetch", fetch);
    vi.useFakeTimers();
    for (const file of files.filter((f) => f !== "src/index.ts")) await import(join(projectRoot, file));
    expect(registered).toEqual([]);
    expect(keyDerivations()).toEqual([]);
    expect(finalityWatchStarted()).toBeUndefined();
    expect(vi.getTimerCount()).toBe(0);
    expect(fetch).not.toHaveBeenCalled();
  });

  it("importing src/index.ts registers every active plugin's handlers (so the fake registry does see registrations)", async () => {
    vi.stubEnv("NAMESPACE", "devnet");
    vi.stubEnv("DEVNET_MANIFEST", writeManifest(fullDevnet));
    vi.stubEnv("PLUGINS", "subgraph,basenames,protocol-acceleration");
    // No healing warm-up; handlers still go through ponder.on.
    vi.stubEnv("NAMEINDEX_NOOP_HANDLERS", "true");
    await import(join(projectRoot, "src/index.ts"));
    expect(new Set(registered.map((name) => name.slice(0, name.indexOf("/"))))).toEqual(
      new Set(["subgraph", "basenames", "protocol-acceleration"]),
    );
    expect(registered).toContain("subgraph/Registry:NewOwner");
    expect(keyDerivations()).toEqual(
      expect.arrayContaining(["subnode(args.node, args.label)", "resolver record at version 0 (args.key)"]),
    );
    expect(finalityWatchStarted()).toBe(true);
  });
});
