import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/*
 * A test file's kind is in its name (vitest.config.ts): `*.system.test.ts` runs after the unit files, `*.alone.test.ts`
 * last and one at a time. The folders whose files start devnets, `ponder start` or servers of their own (end-to-end,
 * reliability) hold those two kinds only: a file added there without a suffix would run as a unit file, among the unit
 * files' own small devnets, and time out on two cores.
 */

const root = join(import.meta.dirname, "../..");
const SYSTEM_ONLY = ["test/e2e", "test/reliability"];

function testFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith(".test.ts") ? [relative(root, join(root, path))] : [];
  });
}

describe("test kinds", () => {
  it("every test file of the end-to-end and reliability folders is a system or an alone one", () => {
    const files = SYSTEM_ONLY.flatMap(testFiles);
    expect(files.length).toBeGreaterThan(20);
    expect(files.filter((f) => !/\.(system|alone)\.test\.ts$/.test(f))).toEqual([]);
  });
});
