import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/*
 * A test file's kind is in its name (vitest.config.ts): `*.serial.test.ts` runs one at a time. The folders whose files
 * start devnets, `ponder start` or servers of their own (end-to-end, reliability) hold serial files only: a file
 * added there without the suffix would run two at a time beside another devnet and time out on two cores.
 */

const root = join(import.meta.dirname, "../..");
const SERIAL_ONLY = ["test/e2e", "test/reliability"];

function testFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith(".test.ts") ? [relative(root, join(root, path))] : [];
  });
}

describe("test kinds", () => {
  it("every test file of the end-to-end and reliability folders is a serial one", () => {
    const files = SERIAL_ONLY.flatMap(testFiles);
    expect(files.length).toBeGreaterThan(20);
    expect(files.filter((f) => !f.endsWith(".serial.test.ts"))).toEqual([]);
  });
});
