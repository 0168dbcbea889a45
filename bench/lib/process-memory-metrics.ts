/**
 * Peaks of the indexer's V8 heap (used and reserved) and external memory, read from Ponder's /metrics (prom-client's
 * default Node.js gauges) while it runs: what splits a peak RSS into live data, the heap's slack and buffers
 * outside the heap. A sample that fails (the event loop busy past the timeout) is skipped.
 *
 * Sampled every 15 s, as an operator's Prometheus scrapes: a scrape of Ponder's /metrics costs the indexer's main
 * thread ~30 ms (prom-client's text of every histogram), so the 2 s this once sampled at took ~3.5 s of a 50,000-name
 * backfill's critical path (a CPU profile), which the floor's runs, never scraped, did not pay.
 */
export interface MemoryPeaks {
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  samples: number;
}

const GAUGES = {
  heapUsedMb: "nodejs_heap_size_used_bytes",
  heapTotalMb: "nodejs_heap_size_total_bytes",
  externalMb: "nodejs_external_memory_bytes",
} as const;

export function watchMemoryMetrics(url: string, everyMs = 15_000): { stop(): MemoryPeaks } {
  const peaks: MemoryPeaks = { heapUsedMb: 0, heapTotalMb: 0, externalMb: 0, samples: 0 };
  let inFlight = false;
  const sample = async () => {
    if (inFlight) return;
    inFlight = true;
    try {
      const text = await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(everyMs * 2) }).then((r) => r.text());
      for (const [key, gauge] of Object.entries(GAUGES) as [keyof typeof GAUGES, string][]) {
        const m = text.match(new RegExp(`^${gauge}(?:\\{[^}]*\\})? (\\S+)`, "m"));
        if (m) peaks[key] = Math.max(peaks[key], Number(m[1]) / 2 ** 20);
      }
      peaks.samples++;
    } catch {
      // Not up yet, or busy: the next sample counts.
    } finally {
      inFlight = false;
    }
  };
  const timer = setInterval(() => void sample(), everyMs);
  return {
    stop() {
      clearInterval(timer);
      return { ...peaks };
    },
  };
}
