import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { devnetPgliteDirectory } from "../../scripts/lib/devnet-pglite-directory";

describe("npm start's PGLITE_DIRECTORY under a devnet", () => {
  const root = mkdtempSync(join(tmpdir(), "nameindex-pglite-dir-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const logged: string[] = [];
  const choose = (directory: string, stateDir: string, freshDevnet: boolean) =>
    devnetPgliteDirectory({ directory, stateDir, freshDevnet, log: (line) => logged.push(line) });
  /** A directory holding what looks like a PGlite database. */
  const withDatabase = (dir: string) => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "PG_VERSION"), "16\n");
    return dir;
  };

  it("removes, for a new devnet, only an index it put there itself for an earlier devnet", () => {
    const stateDir = join(root, "state-a");
    const dir = join(root, "devnet-index");
    expect(choose(dir, stateDir, true)).toBe(dir);
    withDatabase(dir); // the first devnet's index
    expect(choose(dir, stateDir, false)).toBe(dir); // a restart of the same devnet resumes it
    expect(existsSync(join(dir, "PG_VERSION"))).toBe(true);
    expect(choose(dir, stateDir, true)).toBe(dir); // a new devnet starts over
    expect(existsSync(dir)).toBe(false);
    expect(logged.at(-1)).toMatch(/removing the previous devnet's index/);
  });

  it("refuses, and removes nothing from, a non-empty directory it never used: an operator's other index", () => {
    const stateDir = join(root, "state-b");
    const mainnetIndex = withDatabase(join(root, "mainnet-index"));
    expect(() => choose(mainnetIndex, stateDir, true)).toThrow(
      /npm start did not put a devnet index there.*nothing was removed/,
    );
    expect(existsSync(join(mainnetIndex, "PG_VERSION"))).toBe(true);
    // Resumed by a devnet restart, it still never becomes one npm start may remove.
    expect(choose(mainnetIndex, stateDir, false)).toBe(mainnetIndex);
    expect(() => choose(mainnetIndex, stateDir, true)).toThrow(/nothing was removed/);
    expect(existsSync(join(mainnetIndex, "PG_VERSION"))).toBe(true);
  });
});
