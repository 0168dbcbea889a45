import { defineConfig, mergeConfig } from "vitest/config";
import viteConfig from "./vite.config";

const exclude = ["node_modules/**", ".ponder/**", ".cache/**", ".devnet/**"];

/** Every project's settings. */
const common = {
  pool: "forks" as const,
  testTimeout: 60_000,
  hookTimeout: 300_000,
};

/*
 * A test file's kind is in its name. `*.serial.test.ts` runs one at a time, after the rest: it starts anvil, a devnet,
 * Ponder, PostgreSQL servers, Chromium or a child process, or it is slow alone (end-to-end and reliability tests, the
 * snapshot tests, and such files among the unit folders). Every other file of the unit folders is a unit file
 * (`npm run test:unit`, vitest.unit.config.ts, and the first group of `npm test`): pure logic, fakes and in-process or
 * local databases (PGlite, the local PostgreSQL, a fresh schema or database per run), and a few small devnets with an
 * indexer on free ports. Safe side by side: they run two at a time. Test files outside the unit folders (the devnet's
 * and the rehearsal's) run one at a time too.
 */
const unitInclude = ["test/**/*.test.ts", "labels-service/test/**/*.test.ts"];
const serialInclude = unitInclude.map((glob) => glob.replace(/\*\.test\.ts$/, "*.serial.test.ts"));

/** The unit files' project, also the whole of vitest.unit.config.ts. */
export const unitProject = {
  ...common,
  name: "unit",
  include: unitInclude,
  exclude: [...exclude, "**/*.serial.test.ts"],
};

/*
 * `npm test`: the unit files two at a time (group 0), then every other file one at a time (group 1): end-to-end tests
 * start chains and servers, and two cores do not gain from running them side by side. vitest 3.2 sizes one pool for
 * the run (maxWorkers: 2); the one-at-a-time files take turns through their setupFile (test/support/one-at-a-time.ts
 * says why and how). Two projects make up group 1: the unit folders' `*.serial.test.ts` files, and every test file
 * outside those folders.
 */
const oneAtATime = { ...common, setupFiles: ["test/support/one-at-a-time.ts"], sequence: { groupOrder: 1 } };

/** A project: the app's Vite settings (vite.config.ts; projects do not inherit the root's) and these test settings. */
const project = (test: Record<string, unknown>) => mergeConfig(viteConfig, { test });

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      maxWorkers: 2,
      // Compiles the devnet's contracts once, before any worker (test/support/compile-contracts.ts says why).
      globalSetup: ["test/support/compile-contracts.ts"],
      projects: [
        project({ ...unitProject, sequence: { groupOrder: 0 } }),
        project({
          ...oneAtATime,
          name: "serial",
          include: serialInclude,
          exclude,
        }),
        project({
          ...oneAtATime,
          name: "serial-other-folders",
          include: ["**/*.test.ts"],
          exclude: [...exclude, ...unitInclude],
        }),
      ],
    },
  }),
);
