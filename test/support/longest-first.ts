import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/*
 * The order in which `npm test` starts a group's files (vitest.config.ts): the longest first. Two workers take the
 * next file as each frees up, so starting the long files first (longest processing time first) ends the two queues
 * close together, instead of one worker idling for minutes while the other runs a long file it took late. vitest's
 * own order does this only where it cached the last run's durations (node_modules/.vite); on a clean clone (CI) it
 * falls back to the files' sizes, which say little of how long a file spends on its chains and servers.
 *
 * A file's length, in order of trust: this checkout's last run of it (vitest's cache), else the table
 * test/support/file-durations.json (seconds per file from a CI-like run: `npm run test:durations` remakes it), else
 * unknown: a new file runs first, since most new files are system files that start chains.
 */

export const DURATIONS_FILE = "test/support/file-durations.json";

type Durations = Record<string, number>;

function committedDurations(root: string): Durations {
  try {
    return JSON.parse(readFileSync(join(root, DURATIONS_FILE), "utf8")) as Durations;
  } catch {
    return {};
  }
}

export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { root } = this.ctx.config;
    const committed = committedDurations(root);
    const secondsOf = (spec: TestSpecification): number => {
      const path = relative(root, spec.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
      if (cached && !cached.failed && cached.duration > 0) return cached.duration / 1000;
      return committed[path] ?? Number.POSITIVE_INFINITY;
    };
    const seconds = new Map(files.map((spec) => [spec, secondsOf(spec)]));
    return [...files].sort((a, b) => seconds.get(b)! - seconds.get(a)! || a.moduleId.localeCompare(b.moduleId));
  }
}
