import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { projectRoot } from "../../../harness/indexer-harness";

/*
 * An earlier release of nameindex as an operator has it installed: its tree from git and its own locked dependencies
 * with its own Ponder patches, in .cache/releases/<commit>/ (made once, reused by later runs). The harness runs its
 * `ponder start` from there (`startIndexer`'s `projectRoot`).
 */

export interface PreviousRelease {
  commit: string;
  root: string;
  /** Its package.json's version and the Ponder installed with it. */
  version: string;
  ponderVersion: string;
  /** Whether this run had to make it (git archive and npm ci), and how long that took. */
  madeInSeconds: number | null;
}

/** Asynchronous: a minute of a blocked event loop would starve the test worker's messages to vitest. */
const run = (command: string, args: string[], cwd?: string) =>
  promisify(execFile)(command, args, { cwd, maxBuffer: 64 * 2 ** 20 });

export async function previousRelease(commit: string, log: (line: string) => void): Promise<PreviousRelease> {
  const root = join(projectRoot, ".cache", "releases", commit);
  let madeInSeconds: number | null = null;
  if (!existsSync(root)) {
    const started = Date.now();
    // Made beside its final place and renamed into it, so a run killed halfway leaves no tree that looks finished.
    const building = `${root}.building-${process.pid}`;
    rmSync(building, { recursive: true, force: true });
    mkdirSync(building, { recursive: true });
    try {
      log(`materialising release ${commit.slice(0, 10)} in ${root} (git archive, npm ci: about a minute)`);
      await run("sh", ["-c", `git -C "${projectRoot}" archive "${commit}" | tar -x -C "${building}"`]);
      // Without install scripts: better-sqlite3 12 would compile itself, and the indexer needs it only with LABELS_DB
      // (the test points the old release at this release's label service). Then the release's own postinstall.
      await run("npm", ["ci", "--ignore-scripts", "--no-audit", "--no-fund"], building);
      await run("node", ["scripts/apply-patches.mjs"], building);
      try {
        renameSync(building, root);
      } catch (error) {
        if (!existsSync(root)) throw error; // else another run finished first: use its tree
        rmSync(building, { recursive: true, force: true });
      }
    } catch (error) {
      rmSync(building, { recursive: true, force: true });
      const e = error as { message: string; stderr?: string };
      throw new Error(`could not materialise release ${commit}: ${e.message}\n${e.stderr ?? ""}`);
    }
    madeInSeconds = (Date.now() - started) / 1000;
  }
  const versionOf = (path: string) =>
    (JSON.parse(readFileSync(join(root, path), "utf8")) as { version: string }).version;
  return {
    commit,
    root,
    version: versionOf("package.json"),
    ponderVersion: versionOf("node_modules/ponder/package.json"),
    madeInSeconds,
  };
}
