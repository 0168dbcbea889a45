import { defineConfig, mergeConfig } from "vitest/config";
import viteConfig from "./vite.config";
import { unitProject } from "./vitest.config";

/*
 * `npm run test:unit`: the quick loop, `npm test`'s first group alone (vitest.config.ts lists what it leaves out), two
 * files at a time. No devnet contracts are compiled first: the few small devnets among these files compile them on
 * first use, and `npm test` compiles them before any worker.
 */
export default mergeConfig(
  viteConfig,
  defineConfig({
    test: { ...unitProject, name: undefined, maxWorkers: 2 },
  }),
);
