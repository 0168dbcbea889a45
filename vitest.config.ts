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
 * The unit files (`npm run test:unit`, vitest.unit.config.ts, and the first group of `npm test`): pure logic, fakes and
 * in-process or local databases (PGlite, the local PostgreSQL, a fresh schema or database per run), and a few small
 * devnets with an indexer on free ports. Safe side by side: they run two at a time. The end-to-end and reliability
 * tests, the devnet's and the rehearsal's, and the files excluded below run one at a time, after them.
 */
const unitInclude = ["test/**/*.test.ts", "labels-service/test/**/*.test.ts"];
const unitExclude = [
  ...exclude,
  "test/e2e/**",
  "test/reliability/**",
  // Snapshots of a devnet index (snapshot/): a devnet, Ponder and PostgreSQL.
  "test/snapshot/**",
  // These start anvil, a devnet, Ponder or a child process.
  "test/api/table-statistics.test.ts",
  "test/indexing/build-record.test.ts",
  "test/lib/pglite-transactions.test.ts",
  "test/omnigraph/devnet.test.ts",
  "test/omnigraph/ensv2-devnet.test.ts",
  "test/ensv2/chain-truth.test.ts",
  "test/patches.test.ts",
  "test/protocol-acceleration/transport-errors.test.ts",
  "test/protocol-acceleration/universal-resolver.test.ts",
  "test/runtime/pglite-settings.test.ts",
  "test/subgraph-api/cache.test.ts",
  // Starts Chromium (installed with apt-get on first use).
  "test/omnigraph/playground-browser.test.ts",
  "labels-service/test/cli.test.ts",
  "labels-service/test/interrupted-ingest.test.ts",
  // Runs Ponder's sync-store migrations on a fresh PGlite twice (about 10 s alone, a minute on a busy machine).
  "test/runtime/pglite-template.test.ts",
];

/** The unit files' project, also the whole of vitest.unit.config.ts. */
export const unitProject = {
  ...common,
  name: "unit",
  include: unitInclude,
  exclude: unitExclude,
};

/*
 * `npm test`: the unit files two at a time (group 0), then every other file one at a time (group 1): end-to-end tests
 * start chains and servers, and two cores do not gain from running them side by side. vitest 3.2 sizes one pool for
 * the run (maxWorkers: 2); the one-at-a-time files take turns through their setupFile (test/support/one-at-a-time.ts
 * says why and how). Two projects make up group 1 because a glob cannot say "the unit folders' files that are not
 * unit files": the excluded files of those folders, and every test file outside them.
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
          // The test files among them ("test/e2e/**" holds helpers too).
          include: unitExclude
            .filter((glob) => !exclude.includes(glob))
            .map((glob) => (glob.endsWith("/**") ? `${glob}/*.test.ts` : glob)),
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
