/**
 * Where a backfill's time went, from Ponder's /metrics once it is ready: the handlers' own time, the row cache's
 * database time (flush: writes; load/find: reads of rows the cache did not hold), and how its lookups were answered
 * (complete: the table was wholly in memory; prefetch: predicted and loaded in bulk; miss: one read per lookup).
 * Flushes of several tables overlap, so their sum may exceed the wall time.
 */
export interface IndexingBreakdown {
  handlerSeconds: number;
  flushSeconds: number;
  readSeconds: number;
  lookups: { complete: number; prefetch: number; miss: number };
}

const sumOf = (text: string, metric: string, filter: (labels: string) => boolean = () => true): number => {
  let total = 0;
  for (const m of text.matchAll(new RegExp(`^${metric}\\{([^}]*)\\} (\\S+)`, "gm"))) if (filter(m[1]!)) total += Number(m[2]);
  return total;
};

export async function indexingBreakdown(url: string): Promise<IndexingBreakdown> {
  const text = await fetch(`${url}/metrics`).then((r) => r.text());
  const cacheMs = (method: string) => sumOf(text, "ponder_indexing_cache_query_duration_sum", (l) => l.includes(`method="${method}"`));
  const lookups = (type: string) => sumOf(text, "ponder_indexing_cache_requests_total", (l) => l.includes(`type="${type}"`));
  return {
    handlerSeconds: sumOf(text, "ponder_indexing_function_duration_sum") / 1000,
    flushSeconds: cacheMs("flush") / 1000,
    readSeconds: (cacheMs("load") + cacheMs("find")) / 1000,
    lookups: { complete: lookups("complete"), prefetch: lookups("prefetch"), miss: lookups("miss") },
  };
}

export function formatBreakdown(b: IndexingBreakdown): string {
  const { complete, prefetch, miss } = b.lookups;
  const total = Math.max(1, complete + prefetch + miss);
  const pct = (n: number) => `${((100 * n) / total).toFixed(1)}%`;
  return `handlers ${b.handlerSeconds.toFixed(1)} s, DB writes ${b.flushSeconds.toFixed(1)} s, DB reads ${b.readSeconds.toFixed(1)} s; lookups ${pct(complete)} in a complete table, ${pct(prefetch)} prefetched, ${pct(miss)} missed`;
}
