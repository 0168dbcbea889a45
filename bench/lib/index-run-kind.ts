import type { DevnetWithLabels } from "../../harness/devnet-fixture";
import type { IndexerOptions } from "../../harness/indexer-harness";

/**
 * bench:index's kinds of run: the real handlers on PGlite or PostgreSQL, the same on PostgreSQL without the resolver
 * reads (`postgres-noreads`: RESOLVER_READS=false), or no-op handlers on PGlite (Ponder's floor).
 */
export type IndexRunKind = "pglite" | "postgres" | "postgres-noreads" | "noop";

/** `startIndexer`'s options for one kind of run on a bench devnet (`manifestPath`: another view of its chains). */
export function indexRunOptions(
  env: DevnetWithLabels,
  plugins: string[],
  run: IndexRunKind,
  manifestPath = env.devnet.manifestPath,
): IndexerOptions {
  return {
    manifestPath,
    labelsServiceUrl: env.labelsUrl,
    plugins,
    database: run.startsWith("postgres") ? "postgres" : "pglite",
    extraEnv:
      run === "noop"
        ? { NAMEINDEX_NOOP_HANDLERS: "true" }
        : run === "postgres-noreads"
          ? { RESOLVER_READS: "false" }
          : {},
  };
}
