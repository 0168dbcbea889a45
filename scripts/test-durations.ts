import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DURATIONS_FILE } from "../test/support/longest-first";

/*
 * Remakes test/support/file-durations.json, the seconds each test file took in this checkout's last run of it, from
 * vitest's own cache of them (node_modules/.vite/vitest/<hash>/results.json: each file's time from its first hook to
 * its last, without its import). `npm run test:durations` runs the whole suite first. `npm test` starts the longest
 * files first (test/support/longest-first.ts), so a table made on a machine like CI's orders the files as CI sees them.
 */

interface Cache {
  results: [string, { duration: number; failed: boolean }][];
}

const cacheRoot = "node_modules/.vite/vitest";
const caches = readdirSync(cacheRoot)
  .map((dir) => join(cacheRoot, dir, "results.json"))
  .filter((file) => statSync(file, { throwIfNoEntry: false })?.isFile())
  .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
if (caches.length === 0) {
  console.error(`no vitest results under ${cacheRoot}: run the tests first (npm run test:durations)`);
  process.exit(1);
}
const cache = JSON.parse(readFileSync(caches[0]!, "utf8")) as Cache;

// Keys are `<project>:<path>`; a file belongs to one project, and the table is read by path.
const seconds = cache.results
  .filter(([, result]) => result.duration > 0)
  .map(([key, result]) => [key.slice(key.indexOf(":") + 1), Math.round(result.duration / 100) / 10] as const)
  .sort(([a], [b]) => a.localeCompare(b));
writeFileSync(DURATIONS_FILE, `${JSON.stringify(Object.fromEntries(seconds), null, 2)}\n`);
const total = seconds.reduce((sum, [, s]) => sum + s, 0);
console.log(`${DURATIONS_FILE}: ${seconds.length} files, ${Math.round(total)} s in all`);
