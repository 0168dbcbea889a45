import { Hono } from "hono";
import { ponderCommon } from "../../runtime/ponder-hooks";

/**
 * GET /api/indexing-status/events: how many events the indexer has completed, and when that was read. Two readings
 * give events per second (the status page polls it every 2 s); before this the page fetched the whole /metrics,
 * hundreds of kilobytes, for this one counter.
 */

const COUNTER = "ponder_indexing_completed_events";

export interface CompletedEvents {
  /** Events indexed since the process started (Ponder's `ponder_indexing_completed_events`, summed over events). */
  completedEvents: number;
  /** Unix milliseconds of the reading. */
  measuredAt: number;
}

export type CompletedEventsReader = () => Promise<number | undefined>;

interface InProcessCounter {
  get(): Promise<{ values: { value: number }[] }>;
}

/**
 * In the indexing process the counter is read from Ponder's metrics object; an API replica (`ponder serve`) does not
 * index, so it reads the indexer's /metrics (INDEXER_URL), as the sync gauges do.
 */
export function completedEventsReader(metricsUrl: string | undefined): CompletedEventsReader {
  const common = ponderCommon();
  const counter = common?.metrics?.[COUNTER] as InProcessCounter | undefined;
  const indexing = common?.options?.command === "start" || common?.options?.command === "dev";
  if (indexing && counter) return async () => (await counter.get()).values.reduce((sum, v) => sum + v.value, 0);
  return async () => {
    if (!metricsUrl) return undefined;
    try {
      const res = await fetch(metricsUrl, { signal: AbortSignal.timeout(2_000) });
      if (!res.ok) return undefined;
      let total = 0;
      for (const m of (await res.text()).matchAll(new RegExp(`^${COUNTER}\\{[^}]*\\}\\s+(\\S+)`, "gm")))
        total += Number(m[1]);
      return total;
    } catch {
      return undefined;
    }
  };
}

export function completedEventsRoutes(read: CompletedEventsReader): Hono {
  return new Hono().get("/", async (c) => {
    const completedEvents = await read();
    if (completedEvents === undefined) return c.json({ message: "The indexer's event counter cannot be read" }, 503);
    const body: CompletedEvents = { completedEvents, measuredAt: Date.now() };
    return c.json(body, 200, { "cache-control": "no-store" });
  });
}
