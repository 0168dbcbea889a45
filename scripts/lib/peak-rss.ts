import { readFileSync } from "node:fs";

/** Peak resident memory of a process so far (Linux VmHWM), in MiB; throws once the process is gone. */
export function peakRssMb(pid: number): number {
  const match = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmHWM:\s+(\d+) kB/m);
  if (!match) throw new Error(`no VmHWM for process ${pid} (exited?)`);
  return Number(match[1]) / 1024;
}

/**
 * Samples a process's peak RSS until `stop()`, which returns the highest reading (a last one included when the
 * process is still there). VmHWM is a high-water mark, so sampling only bridges to the moment the process exits.
 */
export function watchPeakRss(pid: number, everyMs = 250): { stop(): number } {
  let peak = 0;
  const sample = () => {
    try {
      peak = Math.max(peak, peakRssMb(pid));
    } catch {
      // The process is gone; the last sample stands.
    }
  };
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      sample();
      clearInterval(timer);
      return peak;
    },
  };
}

/**
 * Ponder's handler `eth_call`s by how each was answered (`ponder_indexing_rpc_requests_total`): `rpc` was asked of the
 * RPC while the handler waited (not predicted), `prefetch_rpc` was asked ahead from Ponder's prediction (waited for
 * only if not yet answered), `prefetch_database` and `database` came from the sync store's cache.
 */
export async function handlerCallsByType(url: string): Promise<Record<string, number>> {
  const text = await fetch(`${url}/metrics`).then((r) => r.text());
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^ponder_indexing_rpc_requests_total\{([^}]*)\}\s+(\S+)/gm)) {
    const labels = m[1]!;
    if (!labels.includes('method="eth_call"')) continue;
    const type = /type="([^"]+)"/.exec(labels)?.[1] ?? "?";
    out[type] = (out[type] ?? 0) + Number(m[2]);
  }
  return out;
}

/** Ponder's completed-events counter by event name (`<plugin>/<datasource>/<Contract>:<Event>`). */
export async function completedEventsByName(url: string): Promise<Record<string, number>> {
  const text = await fetch(`${url}/metrics`).then((r) => r.text());
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^ponder_indexing_completed_events\{[^}]*event="([^"]+)"[^}]*\}\s+(\S+)/gm))
    out[m[1]!] = (out[m[1]!] ?? 0) + Number(m[2]);
  return out;
}
