import { copyFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { completedEventsByName, watchPeakRss } from "../scripts/lib/peak-rss";
import { type CanonicalDump, dumpPglite, dumpPostgres } from "./canonical-dump";
import { type IndexerOptions, type RunningIndexer, startIndexer } from "./indexer-harness";

/** What one indexing run to the scenario's end blocks measured. */
export interface IndexRunResult {
  label: string;
  indexer: RunningIndexer;
  seconds: number;
  peakRssMb: number;
  /** Completed events by `<plugin>/<datasource>/<Contract>:<Event>` (Ponder's own counter). */
  events: Record<string, number>;
  dump: CanonicalDump;
}

/**
 * `ponder start` until `/ready` (every chain indexed to its END_BLOCK), then its events, peak RSS and a canonical
 * dump of every table. The indexer is stopped afterwards (PGlite can only be dumped once its owner is gone); the
 * database or PGlite folder stays when it was reused.
 */
export async function indexToEnd(label: string, options: IndexerOptions, timeoutMs: number): Promise<IndexRunResult> {
  const started = Date.now();
  const indexer = await startIndexer(options);
  const rss = watchPeakRss(indexer.process.child.pid!);
  try {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${label}: not ready within ${timeoutMs / 1000} s; see ${indexer.logFile}`)),
        timeoutMs,
      );
    });
    try {
      await Promise.race([indexer.process.ready(), timedOut]);
    } finally {
      clearTimeout(timer);
    }
    const seconds = (Date.now() - started) / 1000;
    const peakRssMb = rss.stop();
    const events = await completedEventsByName(indexer.url);
    let dump: CanonicalDump;
    if (options.database === "postgres") {
      dump = await dumpPostgres(indexer.env.DATABASE_URL!, indexer.schema);
      await indexer.process.stop();
    } else {
      await indexer.process.stop();
      dump = await dumpPglite(indexer.env.PGLITE_DIRECTORY!, indexer.schema);
    }
    return { label, indexer, seconds, peakRssMb, events, dump };
  } catch (error) {
    // The indexer's folder goes with stop(): keep its log where the error can point.
    const kept = join(tmpdir(), `nameindex-rehearsal-${label.replace(/\W+/g, "-")}-${Date.now()}.log`);
    copyFileSync(indexer.logFile, kept);
    const tail = readFileSync(kept, "utf8").split("\n").slice(-30).join("\n");
    await indexer.stop();
    throw new Error(
      `${(error as Error).message} (log kept at ${kept})\n--- last lines of the indexer's log ---\n${tail}`,
    );
  } finally {
    rss.stop();
  }
}
