import client from "prom-client";
import { healingMetrics } from "./healing";

/**
 * nameindex's own Prometheus metrics: time spent in each plugin's handlers and what healing costs. They are served on
 * Ponder's /metrics beside Ponder's (see exposeOnPonderMetrics).
 */
export const nameindexRegistry = new client.Registry();

export const handlerSeconds = new client.Counter({
  name: "nameindex_handler_seconds_total",
  help: "Wall time spent in event handlers, per plugin",
  labelNames: ["plugin"],
  registers: [nameindexRegistry],
});

export const handlerEvents = new client.Counter({
  name: "nameindex_handler_events_total",
  help: "Events handled, per plugin",
  labelNames: ["plugin"],
  registers: [nameindexRegistry],
});

/** A counter whose value is read from the healer's own counters at scrape time. */
function healCounter(name: string, help: string, read: () => number): void {
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

healCounter("nameindex_heal_calls_total", "Labelhashes the indexer asked to heal", () => healingMetrics().calls);
healCounter("nameindex_heal_cache_hits_total", "Heals answered from the in-memory cache", () => healingMetrics().cacheHits);
healCounter("nameindex_heal_source_requests_total", "Requests to the label service or label file", () => healingMetrics().sourceRequests);
healCounter("nameindex_heal_found_total", "Labelhashes healed", () => healingMetrics().healed);
healCounter("nameindex_heal_not_found_total", "Labelhashes the label set does not know", () => healingMetrics().notFound);
healCounter("nameindex_heal_retries_total", "Transient label service failures that were retried", () => healingMetrics().retries);
healCounter("nameindex_heal_seconds_total", "Wall time handlers spent waiting for heals", () => healingMetrics().totalMs / 1000);

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
