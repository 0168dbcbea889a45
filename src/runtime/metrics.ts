import client from "prom-client";
import { healingMetrics, prefetchMetrics } from "../lib/healing";

/**
 * nameindex's own Prometheus metrics: time spent in each plugin's handlers and what healing costs. They are served on
 * Ponder's /metrics beside Ponder's (see exposeOnPonderMetrics).
 */
export const nameindexRegistry = new client.Registry();

/** A plugin's handled events and their wall time, kept in plain numbers and read at scrape time. */
export interface HandlerTotals {
  events: number;
  seconds: number;
}

const handlerTotals = new Map<string, HandlerTotals>();

/**
 * The totals a plugin's handlers add to, once per event. A labelled prom-client `inc` hashes its labels on every
 * call (two per event were ~0.3 s of CPU per 70,000 events); these are plain additions.
 */
export function handlerTotalsOf(plugin: string): HandlerTotals {
  let totals = handlerTotals.get(plugin);
  if (!totals) handlerTotals.set(plugin, (totals = { events: 0, seconds: 0 }));
  return totals;
}

/** A per-plugin counter whose values are read from `handlerTotals` at scrape time. */
function handlerCounter(name: string, help: string, read: (totals: HandlerTotals) => number): void {
  new client.Counter({
    name,
    help,
    labelNames: ["plugin"],
    registers: [nameindexRegistry],
    collect() {
      this.reset();
      for (const [plugin, totals] of handlerTotals) this.inc({ plugin }, read(totals));
    },
  });
}

handlerCounter("nameindex_handler_seconds_total", "Wall time spent in event handlers, per plugin", (t) => t.seconds);
handlerCounter("nameindex_handler_events_total", "Events handled, per plugin", (t) => t.events);

/** What the write-behind store (src/plugins/shared/write-behind/) wrote during the backfill, in plain numbers. */
export const writeBehindTotals = {
  rows: 0,
  copySeconds: 0,
  waitSeconds: 0,
  misses: 0,
  missSeconds: 0,
  unread: 0,
  prefetched: 0,
  evictions: 0,
  pipelined: 0,
};

/** A counter whose value is read from plain numbers (the healer's, the write-behind store's) at scrape time. */
function readCounter(name: string, help: string, read: () => number): void {
  new client.Counter({
    name,
    help,
    registers: [nameindexRegistry],
    collect() {
      this.reset();
      this.inc(read());
    },
  });
}

readCounter(
  "nameindex_write_behind_rows_total",
  "Rows the backfill wrote by COPY outside Ponder's store",
  () => writeBehindTotals.rows,
);
readCounter(
  "nameindex_write_behind_copy_seconds_total",
  "Wall time of those COPYs",
  () => writeBehindTotals.copySeconds,
);
readCounter(
  "nameindex_write_behind_wait_seconds_total",
  "Time the backfill's flush waited for the previous batch's rows to reach the database (the pipeline's write, not done)",
  () => writeBehindTotals.waitSeconds,
);
readCounter(
  "nameindex_write_behind_misses_total",
  "Live-table reads of a key nobody predicted (an evicted table): one database read each, or one with the keys of the batch's other events that the pattern it teaches predicts",
  () => writeBehindTotals.misses,
);
/**
 * Those reads by the handler that made them (Ponder's event name) and the table read: where a derived key would let
 * the prefetch load them in bulk (src/plugins/shared/row-key-derivations.ts).
 */
export const writeBehindMissesByRead = new Map<string, Map<string, number>>();

new client.Counter({
  name: "nameindex_write_behind_misses_by_read_total",
  help: "The write-behind store's one-by-one reads, by handler (Ponder's event name) and table",
  labelNames: ["handler", "table"],
  registers: [nameindexRegistry],
  collect() {
    this.reset();
    for (const [handler, byTable] of writeBehindMissesByRead)
      for (const [table, count] of byTable) this.inc({ handler, table }, count);
  },
});
readCounter(
  "nameindex_write_behind_miss_seconds_total",
  "Time handlers waited for those reads (a read queues behind the previous batch's rows on the batch's connection)",
  () => writeBehindTotals.missSeconds,
);
readCounter(
  "nameindex_write_behind_unread_writes_total",
  "Live-table writes the write-behind store made without reading the key (an upsert of the row's own values, a delete whose answer nobody used)",
  () => writeBehindTotals.unread,
);
readCounter(
  "nameindex_write_behind_prefetched_keys_total",
  "Live-table keys the write-behind store loaded in bulk: before their batch, or with the read that taught their pattern",
  () => writeBehindTotals.prefetched,
);
readCounter(
  "nameindex_write_behind_evictions_total",
  "Live tables the write-behind store stopped holding whole, past NAMEINDEX_WRITE_BEHIND_BYTES",
  () => writeBehindTotals.evictions,
);
readCounter(
  "nameindex_write_behind_pipelined_batches_total",
  "Backfill batches whose rows the write-behind store wrote in the next batch's transaction, while its handlers ran",
  () => writeBehindTotals.pipelined,
);
readCounter("nameindex_heal_calls_total", "Labelhashes the indexer asked to heal", () => healingMetrics().calls);
readCounter(
  "nameindex_heal_cache_hits_total",
  "Heals answered from the in-memory cache",
  () => healingMetrics().cacheHits,
);
readCounter(
  "nameindex_heal_source_requests_total",
  "Requests to the label service or label file",
  () => healingMetrics().sourceRequests,
);
readCounter("nameindex_heal_found_total", "Labelhashes healed", () => healingMetrics().healed);
readCounter(
  "nameindex_heal_not_found_total",
  "Labelhashes the label set does not know",
  () => healingMetrics().notFound,
);
readCounter(
  "nameindex_heal_retries_total",
  "Transient label service failures that were retried",
  () => healingMetrics().retries,
);
readCounter(
  "nameindex_heal_seconds_total",
  "Wall time handlers spent waiting for heals",
  () => healingMetrics().totalMs / 1000,
);
readCounter(
  "nameindex_heal_prefetch_requests_total",
  "eth_getLogs windows the label prefetch read",
  () => prefetchMetrics().requests,
);
readCounter(
  "nameindex_heal_prefetch_failures_total",
  "Label prefetch windows that failed (tried again smaller)",
  () => prefetchMetrics().failures,
);

const PATCHED = Symbol.for("nameindex.metrics.exposed");

/**
 * Ponder answers /metrics itself, before any app route, with its registry's `metrics()`. Appending our registry's
 * text to the output of any other registry puts our metrics on that same endpoint, so one scrape target has both.
 */
export function exposeOnPonderMetrics(): void {
  const prototype = client.Registry.prototype as client.Registry & Record<symbol, boolean>;
  if (prototype[PATCHED]) return;
  prototype[PATCHED] = true;
  const metrics = prototype.metrics;
  prototype.metrics = async function (this: client.Registry) {
    const text = await metrics.call(this);
    if (this === nameindexRegistry) return text;
    return `${text.trimEnd()}\n\n${await metrics.call(nameindexRegistry)}`;
  };
}
