import { Hono } from "hono";
import { z } from "zod";
import { invalidInput } from "../http-errors";
import type { IndexingStatusService } from "./service";
import { projectRealtime } from "./snapshot";

export const AMIREALTIME_DEFAULT_MAX_WORST_CASE_DISTANCE = 60;

export const amIRealtimeQuery = z.object({
  maxWorstCaseDistance: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v === "" ? undefined : v))
    .pipe(
      z.coerce
        .number({ message: "must be a number of seconds" })
        .int("must be a whole number of seconds")
        .nonnegative("must not be negative")
        .max(Number.MAX_SAFE_INTEGER, "is too large")
        .default(AMIREALTIME_DEFAULT_MAX_WORST_CASE_DISTANCE),
    ),
});

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** GET /api/indexing-status: the omnichain snapshot, projected to now. */
export function indexingStatusRoutes(service: IndexingStatusService): Hono {
  return new Hono().get("/", async (c) => {
    const snapshot = await service.snapshot();
    if (!snapshot) return c.json({ responseCode: "error" }, 503);
    return c.json(projectRealtime(snapshot, nowSeconds()));
  });
}

/** GET /amirealtime: 200 when every chain's latest indexed block is within the distance of real time, else 503. */
export function amIRealtimeRoutes(service: IndexingStatusService): Hono {
  return new Hono().get("/", async (c) => {
    const parsed = amIRealtimeQuery.safeParse(c.req.query());
    if (!parsed.success) return invalidInput(c, parsed.error);
    const maxWorstCaseDistance = parsed.data.maxWorstCaseDistance;
    const snapshot = await service.snapshot();
    if (!snapshot) {
      return c.json({ message: "Indexing has not started yet: no indexing status exists." }, 503);
    }
    const { worstCaseDistance } = projectRealtime(snapshot, nowSeconds()).realtimeProjection;
    const body = {
      maxWorstCaseDistance,
      slowestChainIndexingCursor: snapshot.slowestChainIndexingCursor,
      worstCaseDistance,
    };
    if (worstCaseDistance <= maxWorstCaseDistance) return c.json(body, 200);
    return c.json(
      {
        message: `Indexing is not realtime: the worst-case distance is ${worstCaseDistance} s, more than the requested ${maxWorstCaseDistance} s.`,
        ...body,
      },
      503,
    );
  });
}
