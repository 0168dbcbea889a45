/**
 * Where a backfill's time went, from Ponder's /metrics once it is ready. Ponder indexes a batch of events in
 * steps, one after another: wait for the batch (fetching and decoding), prefetch rows the row cache predicts,
 * index (the handlers, whose reads the cache answers from memory or the database), flush (write the batch's rows),
 * then checkpoint and commit. And how the handlers' row lookups were answered: complete (the table was wholly in
 * memory), prefetched (predicted and loaded in bulk before the batch), missed (one database read each).
 */
export interface IndexingBreakdown {
  /** Seconds per step, in Ponder's order. */
  steps: {
    wait: number;
    prefetch: number;
    index: number;
    flush: number;
    begin: number;
    checkpoint: number;
    commit: number;
  };
  lookups: { complete: number; prefetch: number; hit: number; miss: number };
  /** Tables with the most missed lookups, most first: where an evicting row cache reads the database one row at a time. */
  missesByTable: { table: string; misses: number }[];
  /** Seconds each table's rows took to write at the batches' ends, most first. */
  flushByTable: { table: string; seconds: number }[];
  /** The handlers' store calls (find, insert, update, delete) per table, most first: each one is Ponder's overhead. */
  storeCallsByTable: { table: string; calls: number; byMethod: [method: string, calls: number][] }[];
  /** Deletes per table: Ponder sends each one to the database at once, and the handler waits for it. */
  deletesByTable: { table: string; calls: number }[];
  /** Rows the write-behind store wrote by COPY, outside Ponder's store, and the COPYs' wall time. */
  writeBehind: {
    rows: number;
    copySeconds: number;
    waitSeconds: number;
    pipelinedBatches: number;
    evictions: number;
    prefetched: number;
    misses: number;
    missSeconds: number;
    /** Those one-by-one reads by handler and table, most first. */
    missesByRead: { handler: string; table: string; reads: number }[];
    unread: number;
  };
  /** What the handlers asked of the label healer, and how: from its cache, or one request to the label service each. */
  healing: {
    calls: number;
    cacheHits: number;
    sourceRequests: number;
    waitSeconds: number;
    prefetchRequests: number;
    prefetchFailures: number;
  };
}

/** Each sample of a Prometheus metric: its label text and its value. */
const samplesOf = (text: string, metric: string): [labels: string, value: number][] =>
  [...text.matchAll(new RegExp(`^${metric}(?:\\{([^}]*)\\})? (\\S+)`, "gm"))].map((m) => [m[1] ?? "", Number(m[2])]);

const sumOf = (text: string, metric: string, filter: (labels: string) => boolean = () => true): number =>
  samplesOf(text, metric).reduce((total, [labels, value]) => (filter(labels) ? total + value : total), 0);

/** A metric summed per value of one label, largest first. */
function byLabel(
  text: string,
  metric: string,
  label: string,
  filter: (labels: string) => boolean = () => true,
): [string, number][] {
  const totals = new Map<string, number>();
  for (const [labels, value] of samplesOf(text, metric)) {
    if (!filter(labels)) continue;
    const key = new RegExp(`${label}="([^"]+)"`).exec(labels)?.[1] ?? "?";
    totals.set(key, (totals.get(key) ?? 0) + value);
  }
  return [...totals].filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]);
}

const byTable = (text: string, metric: string, filter?: (labels: string) => boolean) =>
  byLabel(text, metric, "table", filter);

export async function indexingBreakdown(url: string): Promise<IndexingBreakdown> {
  const text = await fetch(`${url}/metrics`).then((r) => r.text());
  const step = (...names: string[]) =>
    sumOf(text, "ponder_historical_transform_duration", (l) => names.some((n) => l.includes(`step="${n}"`))) / 1000;
  const lookups = (type: string) =>
    sumOf(text, "ponder_indexing_cache_requests_total", (l) => l.includes(`type="${type}"`));
  return {
    steps: {
      wait: sumOf(text, "ponder_historical_concurrency_group_duration", (l) => l.includes('group="extract"')) / 1000,
      prefetch: step("prefetch"),
      index: step("index"),
      flush: step("load"),
      begin: step("begin"),
      checkpoint: step("finalize"),
      commit: step("commit"),
    },
    lookups: {
      complete: lookups("complete"),
      prefetch: lookups("prefetch"),
      hit: lookups("hit"),
      miss: lookups("miss"),
    },
    missesByTable: samplesOf(text, "ponder_indexing_cache_requests_total")
      .filter(([labels]) => labels.includes('type="miss"'))
      .map(([labels, misses]) => ({ table: /table="([^"]+)"/.exec(labels)?.[1] ?? "?", misses }))
      .filter((t) => t.misses > 0)
      .sort((a, b) => b.misses - a.misses),
    flushByTable: byTable(text, "ponder_indexing_cache_query_duration_sum", (l) => l.includes('method="flush"')).map(
      ([table, ms]) => ({ table, seconds: ms / 1000 }),
    ),
    storeCallsByTable: byTable(text, "ponder_indexing_store_queries_total").map(([table, calls]) => ({
      table,
      calls,
      byMethod: byLabel(text, "ponder_indexing_store_queries_total", "method", (l) => l.includes(`table="${table}"`)),
    })),
    deletesByTable: byTable(text, "ponder_indexing_store_queries_total", (l) => l.includes('method="delete"')).map(
      ([table, calls]) => ({ table, calls }),
    ),
    writeBehind: {
      rows: sumOf(text, "nameindex_write_behind_rows_total"),
      copySeconds: sumOf(text, "nameindex_write_behind_copy_seconds_total"),
      waitSeconds: sumOf(text, "nameindex_write_behind_wait_seconds_total"),
      evictions: sumOf(text, "nameindex_write_behind_evictions_total"),
      prefetched: sumOf(text, "nameindex_write_behind_prefetched_keys_total"),
      misses: sumOf(text, "nameindex_write_behind_misses_total"),
      missSeconds: sumOf(text, "nameindex_write_behind_miss_seconds_total"),
      missesByRead: samplesOf(text, "nameindex_write_behind_misses_by_read_total")
        .map(([labels, reads]) => ({
          handler: /handler="([^"]*)"/.exec(labels)?.[1] ?? "?",
          table: /table="([^"]*)"/.exec(labels)?.[1] ?? "?",
          reads,
        }))
        .filter((r) => r.reads > 0)
        .sort((a, b) => b.reads - a.reads),
      unread: sumOf(text, "nameindex_write_behind_unread_writes_total"),
      pipelinedBatches: sumOf(text, "nameindex_write_behind_pipelined_batches_total"),
    },
    healing: {
      calls: sumOf(text, "nameindex_heal_calls_total"),
      cacheHits: sumOf(text, "nameindex_heal_cache_hits_total"),
      sourceRequests: sumOf(text, "nameindex_heal_source_requests_total"),
      waitSeconds: sumOf(text, "nameindex_heal_seconds_total"),
      prefetchRequests: sumOf(text, "nameindex_heal_prefetch_requests_total"),
      prefetchFailures: sumOf(text, "nameindex_heal_prefetch_failures_total"),
    },
  };
}

/** The handlers' calls to Ponder's store, all tables. */
export const storeCallsOf = (b: IndexingBreakdown): number => b.storeCallsByTable.reduce((n, t) => n + t.calls, 0);

/** The reads one by one that the most events made, as `table under handler n`. */
const mostMissed = (b: IndexingBreakdown): string =>
  b.writeBehind.missesByRead.length === 0
    ? ""
    : `; most: ${b.writeBehind.missesByRead
        .slice(0, 4)
        .map((r) => `${r.table} under ${r.handler} ${r.reads}`)
        .join(", ")}`;

export function formatBreakdown(b: IndexingBreakdown): string {
  const { wait, prefetch, index, flush, begin, checkpoint, commit } = b.steps;
  const { complete, hit, miss } = b.lookups;
  const total = Math.max(1, complete + hit + miss);
  const share = (n: number, of: number) => `${((100 * n) / Math.max(1, of)).toFixed(1)}%`;
  const pct = (n: number) => share(n, total);
  const h = b.healing;
  return (
    `wait for events ${wait.toFixed(1)} s, prefetch ${prefetch.toFixed(1)} s, index ${index.toFixed(1)} s, flush ${flush.toFixed(1)} s, ` +
    `begin ${begin.toFixed(1)} s, checkpoint ${checkpoint.toFixed(1)} s, commit ${commit.toFixed(1)} s; lookups ${pct(complete)} from a complete table, ${pct(hit)} from cached rows of an evicted one ` +
    `(${b.lookups.prefetch} rows prefetched), ${pct(miss)} missed` +
    (b.missesByTable.length > 0
      ? ` (most: ${b.missesByTable
          .slice(0, 5)
          .map((t) => `${t.table} ${t.misses}`)
          .join(", ")})`
      : "") +
    `; flush by table: ${b.flushByTable
      .slice(0, 6)
      .map((t) => `${t.table} ${t.seconds.toFixed(1)} s`)
      .join(", ")}` +
    `; store calls: ${storeCallsOf(b)} (most: ${b.storeCallsByTable
      .slice(0, 16)
      .map((t) => `${t.table} ${t.calls} (${t.byMethod.map(([m, n]) => `${m} ${n}`).join(", ")})`)
      .join(", ")})` +
    `; deletes (one database round trip each): ${b.deletesByTable.map((t) => `${t.table} ${t.calls}`).join(", ") || "none"}` +
    `; write-behind: ${b.writeBehind.rows} rows by COPY in ${b.writeBehind.copySeconds.toFixed(1)} s (the flush waited ${b.writeBehind.waitSeconds.toFixed(1)} s for them), ` +
    `${b.writeBehind.pipelinedBatches} batches written while the next one's handlers ran, ` +
    `${b.writeBehind.evictions} live tables evicted, ${b.writeBehind.prefetched} keys prefetched, ${b.writeBehind.misses} read one by one (waited ${b.writeBehind.missSeconds.toFixed(1)} s${mostMissed(b)}), ${b.writeBehind.unread} written unread` +
    `; healing: ${h.calls} labelhashes, ${share(h.cacheHits, h.calls)} from the cache, ${h.sourceRequests} label service requests, ` +
    `${h.waitSeconds.toFixed(1)} s waited in handlers; prefetch ${h.prefetchRequests} eth_getLogs, ${h.prefetchFailures} failed`
  );
}
