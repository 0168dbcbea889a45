/**
 * NODE_ENV for the processes that serve the app (`ponder start`, `ponder serve`, the benchmarks' servers).
 *
 * graphql-js decides once, when it is first imported, whether it runs in development mode: unless NODE_ENV is
 * "production", every `instanceof` it does while validating and executing a query (schema types, AST nodes, errors)
 * also checks for a same-named class from another copy of graphql, to warn about duplicate installs. And Ponder's
 * build (Vite's config resolution) sets NODE_ENV to "development" in its own process when it is unset, so a
 * `ponder start` spawned without it always served /subgraph in development mode.
 * An operator's own NODE_ENV wins. docs/benchmarks.md ("/subgraph") has the measurement.
 */
export function withProductionNodeEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return env.NODE_ENV ? env : { ...env, NODE_ENV: "production" };
}
