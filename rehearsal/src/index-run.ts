import { copyFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CanonicalDump, dumpPglite, dumpPostgres } from "../../test/reliability/support/canonical-dump";
import { type IndexerOptions, type RunningIndexer, startIndexer } from "../../test/support/indexer-harness";

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

/** Peak resident memory of a process so far (Linux VmHWM), in MiB. */
function peakRssMb(pid: number): number {
  const match = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmHWM:\s+(\d+) kB/m);
  if (!match) throw new Error(`no VmHWM for process ${pid} (exited?)`);
  return Number(match[1]) / 1024;
}

async function completedEvents(url: string): Promise<Record<string, number>> {
  const text = await fetch(`${url}/metrics`).then((r) => r.text());
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^ponder_indexing_completed_events\{[^}]*event="([^"]+)"[^}]*\}\s+(\S+)/gm)) out[m[1]!] = (out[m[1]!] ?? 0) + Number(m[2]);
  return out;
}

/**
 * `ponder start` until `/ready` (every chain indexed to its END_BLOCK), then its events, peak RSS and a canonical
 * dump of every table. The indexer is stopped afterwards (PGlite can only be dumped once its owner is gone); the
 * database or PGlite folder stays when it was reused.
 */
export async function indexToEnd(label: string, options: IndexerOptions, timeoutMs: number): Promise<IndexRunResult> {
  const started = Date.now();
  const indexer = await startIndexer(options);
  const pid = indexer.process.child.pid!;
  let peak = 0;
  const sampler = setInterval(() => {
    try {
      peak = Math.max(peak, peakRssMb(pid));
    } catch {
      // The process is gone; the last sample stands.
    }
  }, 250);
  try {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${label}: not ready within ${timeoutMs / 1000} s; see ${indexer.logFile}`)), timeoutMs);
    });
    try {
      await Promise.race([indexer.process.ready(), timedOut]);
    } finally {
      clearTimeout(timer);
    }
    const seconds = (Date.now() - started) / 1000;
    try {
      peak = Math.max(peak, peakRssMb(pid));
    } catch {
      // Sampled above until now.
    }
    const events = await completedEvents(indexer.url);
    let dump: CanonicalDump;
    if (options.database === "postgres") {
      dump = await dumpPostgres(indexer.env.DATABASE_URL!, indexer.schema);
      await indexer.process.stop();
    } else {
      await indexer.process.stop();
      dump = await dumpPglite(indexer.env.PGLITE_DIRECTORY!, indexer.schema);
    }
    return { label, indexer, seconds, peakRssMb: peak, events, dump };
  } catch (error) {
    // The indexer's folder goes with stop(): keep its log where the error can point.
    const kept = join(tmpdir(), `nameindex-rehearsal-${label.replace(/\W+/g, "-")}-${Date.now()}.log`);
    copyFileSync(indexer.logFile, kept);
    const tail = readFileSync(kept, "utf8").split("\n").slice(-30).join("\n");
    await indexer.stop();
    throw new Error(`${(error as Error).message} (log kept at ${kept})\n--- last lines of the indexer's log ---\n${tail}`);
  } finally {
    clearInterval(sampler);
  }
}
