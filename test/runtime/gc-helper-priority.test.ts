import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = join(import.meta.dirname, "../..");

interface Niceness {
  changed: number;
  /** The main thread's nice value (its thread id is the process id). */
  main: number;
  /** The nice value of each of V8's helper threads. */
  helpers: number[];
}

/**
 * Runs lowerGcHelperPriority(nice) in a process of its own (the test runner's threads keep their priority) and reads
 * back, from /proc, the nice value of that process's threads.
 */
async function niceAfter(nice: number): Promise<Niceness> {
  const script = `
    import { readdirSync, readFileSync } from "node:fs";
    import { lowerGcHelperPriority } from "./src/runtime/gc-helper-priority.ts";
    const changed = lowerGcHelperPriority(${nice});
    const niceOf = (tid) => {
      const stat = readFileSync("/proc/self/task/" + tid + "/stat", "utf8");
      // Counted from the name's closing parenthesis (a name may hold spaces): nice is the 19th field.
      return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]);
    };
    const helpers = readdirSync("/proc/self/task")
      .filter((tid) => readFileSync("/proc/self/task/" + tid + "/comm", "utf8").trim() === "V8Worker")
      .map(niceOf);
    console.log(JSON.stringify({ changed, main: niceOf(process.pid), helpers }));
  `;
  const { stdout } = await run(join(root, "node_modules/.bin/tsx"), ["--eval", script], { cwd: root });
  return JSON.parse(stdout.trim().split("\n").at(-1)!);
}

describe.runIf(process.platform === "linux")("lowerGcHelperPriority", () => {
  it("sets V8's helper threads to the nice value and leaves the main thread as it was", async () => {
    const before = await niceAfter(0);
    const after = await niceAfter(7);
    expect(after.helpers.length).toBeGreaterThan(0);
    expect(after.changed).toBe(after.helpers.length);
    expect(after.helpers.every((nice) => nice === 7)).toBe(true);
    expect(after.main).toBe(before.main);
  });

  it("changes nothing at 0", async () => {
    const { changed, main, helpers } = await niceAfter(0);
    expect(changed).toBe(0);
    expect(helpers.length).toBeGreaterThan(0);
    expect(helpers.every((nice) => nice === main)).toBe(true);
  });
});
