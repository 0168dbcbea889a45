import { createRequire } from "node:module";
import { defineConfig } from "vite";

/*
 * Read by Ponder's Vite server, which loads the app's files (Ponder's root is the project root), and by
 * vitest.config.ts.
 *
 * One copy of `graphql` for the app, Ponder and graphql-jit (the Omnigraph's compiled executor), whose type checks
 * reject a schema built by another copy. Left to itself, Vite gives the app graphql's ES module build, while Ponder
 * and graphql-jit load its CommonJS build through Node; the app now loads the CommonJS build too.
 */
export default defineConfig({
  resolve: {
    alias: [{ find: /^graphql$/, replacement: createRequire(import.meta.url).resolve("graphql") }],
  },
});
