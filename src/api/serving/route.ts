import { Hono } from "hono";
import { DATABASE_UNAVAILABLE } from "../shared/database-unavailable";

/*
 * GET /serving: whether this process can serve the index, for a load balancer in front of API replicas (and of the
 * indexer's API). 200 while the database answers and the schema holds a finished backfill, whether or not the indexer
 * is restarting; 503 with a code and the reason otherwise, within a second. Ponder's /ready keeps its own meaning
 * (the running indexer has caught up), which is also in the answer as `ponderReady`. docs/operations.md, "Monitor".
 */

/** What the route reads: a fresh state of the database, within the probe's deadline (server/database-health.ts). */
export interface ServingState {
  check(): Promise<
    | { database: "answers"; backfillFinished: boolean; ponderReady: boolean }
    | { database: "unavailable"; reason: string }
  >;
}

export const BACKFILL_NOT_FINISHED = "BACKFILL_NOT_FINISHED";

export function servingRoutes(health: ServingState): Hono {
  return new Hono().get("/", async (c) => {
    const state = await health.check();
    c.header("cache-control", "no-store");
    if (state.database === "unavailable")
      return c.json({ serving: false, code: DATABASE_UNAVAILABLE, reason: state.reason }, 503);
    if (!state.backfillFinished)
      return c.json(
        {
          serving: false,
          code: BACKFILL_NOT_FINISHED,
          reason: "the schema holds no finished backfill yet: the indexer's first backfill is under way",
          ponderReady: false,
        },
        503,
      );
    return c.json({ serving: true, ponderReady: state.ponderReady });
  });
}
