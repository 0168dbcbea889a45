import { defineConfig } from "vitest/config";
import base from "./vitest.config";

/*
 * `npm run test:unit`: the quick loop. Pure logic, fakes and in-process or local databases (PGlite, the local
 * PostgreSQL): no devnet, no anvil, no Ponder or indexer process, no child process. The end-to-end and reliability
 * tests, the devnet's and the rehearsal's, and the files below that start a chain or a process run in `npm test` only.
 */
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ["test/**/*.test.ts", "labels-service/test/**/*.test.ts"],
    // No devnet here, so no contracts to compile first.
    globalSetup: [],
    exclude: [
      ...(base.test?.exclude ?? []),
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
    ],
  },
});
