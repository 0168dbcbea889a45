import { defineConfig, mergeConfig } from "vitest/config";
import { LongestFirstSequencer } from "./test/support/longest-first";
import viteConfig from "./vite.config";

const exclude = ["node_modules/**", ".ponder/**", ".cache/**", ".devnet/**"];

/** Every project's settings. */
const common = {
  pool: "forks" as const,
  testTimeout: 60_000,
  hookTimeout: 300_000,
};

/*
 * A test file's kind is in its name, and says how many run side by side:
 * - a unit file (`*.test.ts` under the unit folders): pure logic, fakes and in-process or local databases (PGlite, the
 *   local PostgreSQL, a fresh schema or database per run), and a few small devnets with an indexer on free ports. Two
 *   at a time; `npm run test:unit` runs them alone (vitest.unit.config.ts);
 * - `*.system.test.ts`: it starts anvil, a devnet, Ponder, PostgreSQL servers, Chromium or a child process, or it is
 *   slow alone (end-to-end and reliability tests, the snapshot tests, and such files among the unit folders). Two at a
 *   time as well: each spends much of its time waiting on its chain, its indexer's start or its servers, so two share
 *   the machine's two cores (one at a time kept them 58 % busy; two at a time, 87 %, and eight such files took 311 s
 *   against 485 s). Every test file outside the unit folders (the devnet's and the rehearsal's) is one too;
 * - `*.alone.test.ts`: a system test whose assertions time the machine (latency bounds under load, how fast a restart
 *   is ready or a replica notices an outage, a provider's rate caps): run last, one at a time, so no other test's
 *   chain or indexer shares its cores.
 * The unit and system files are one queue (group 0), started longest first (test/support/longest-first.ts), so the two
 * workers end it together: as two queues, each ended with one worker idle behind the other's last long file.
 */
const unitInclude = ["test/**/*.test.ts", "labels-service/test/**/*.test.ts"];
const systemInclude = unitInclude.map((glob) => glob.replace(/\*\.test\.ts$/, "*.system.test.ts"));
const aloneInclude = ["**/*.alone.test.ts"];

/** The unit files' project, also the whole of vitest.unit.config.ts. */
export const unitProject = {
  ...common,
  name: "unit",
  include: unitInclude,
  exclude: [...exclude, "**/*.system.test.ts", ...aloneInclude],
};

/*
 * `npm test`: the unit and system files (group 0), two at a time, then the files that run alone (group 1). vitest 3.2
 * sizes one pool for the run (maxWorkers: 2); the files that run alone take turns through their setupFile
 * (test/support/one-at-a-time.ts says why and how).
 */
const alone = { ...common, setupFiles: ["test/support/one-at-a-time.ts"], sequence: { groupOrder: 1 } };

/** A project: the app's Vite settings (vite.config.ts; projects do not inherit the root's) and these test settings. */
const project = (test: Record<string, unknown>) => mergeConfig(viteConfig, { test });

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      maxWorkers: 2,
      sequence: { sequencer: LongestFirstSequencer },
      // Compiles the devnet's contracts once, before any worker (test/support/compile-contracts.ts says why).
      globalSetup: ["test/support/compile-contracts.ts"],
      projects: [
        project(unitProject),
        project({ ...common, name: "system", include: systemInclude, exclude }),
        project({
          ...common,
          name: "system-other-folders",
          include: ["**/*.test.ts"],
          exclude: [...exclude, ...unitInclude, ...aloneInclude],
        }),
        project({ ...alone, name: "alone", include: aloneInclude, exclude }),
      ],
    },
  }),
);
