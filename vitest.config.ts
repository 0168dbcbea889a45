import { defineConfig, mergeConfig } from "vitest/config";
import viteConfig from "./vite.config";

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      include: ["**/*.test.ts"],
      exclude: ["node_modules/**", ".ponder/**", ".cache/**", ".devnet/**"],
      pool: "forks",
      // End-to-end tests start chains and servers; two cores do not gain from running them side by side.
      fileParallelism: false,
      testTimeout: 60_000,
      hookTimeout: 300_000,
      // Compiles the devnet's contracts once, before any worker (test/support/compile-contracts.ts says why).
      globalSetup: ["test/support/compile-contracts.ts"],
    },
  }),
);
