import { defineConfig, mergeConfig } from "vitest/config";
import { LongestFirstSequencer } from "./test/support/longest-first";
import viteConfig from "./vite.config";
import { unitProject } from "./vitest.config";

/*
 * `npm run test:unit`: the quick loop, `npm test`'s first group alone (the unit folders' files but `*.system.test.ts`:
 * vitest.config.ts), two files at a time. A few of these files start a small devnet: its contracts are compiled first,
 * as in `npm test` (test/support/compile-contracts.ts; a no-op once cached), not by two workers at once.
 */
export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      ...unitProject,
      name: undefined,
      maxWorkers: 2,
      sequence: { sequencer: LongestFirstSequencer },
      globalSetup: ["test/support/compile-contracts.ts"],
    },
  }),
);
