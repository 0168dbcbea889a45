import type { DevnetWithLabels } from "../../test/support/devnet-fixture";
import type { IndexerOptions } from "../../test/support/indexer-harness";

/** bench:index's kinds of run: the real handlers on PGlite or PostgreSQL, or no-op handlers on PGlite (Ponder's floor). */
export type IndexRunKind = "pglite" | "postgres" | "noop";

/** `startIndexer`'s options for one kind of run on a bench devnet. */
export function indexRunOptions(env: DevnetWithLabels, plugins: string[], run: IndexRunKind): IndexerOptions {
  return {
    manifestPath: env.devnet.manifestPath,
    labelsServiceUrl: env.labelsUrl,
    plugins,
    database: run === "postgres" ? "postgres" : "pglite",
    extraEnv: run === "noop" ? { NAMEINDEX_NOOP_HANDLERS: "true" } : {},
  };
}
