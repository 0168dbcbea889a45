import { Hono } from "hono";
import { type ZodError, z } from "zod";
import { invalidInput } from "../shared/http-errors";
import { type IndexingSnapshot, projectRealtime } from "../shared/indexing-snapshot";
import { PreparedResponses } from "./responses";
import type { IndexingStatusService } from "./service";

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

const JSON_HEADERS = { "content-type": "application/json" };

type Prepared = { status: 200 | 503; body: string } | { invalid: ZodError };

/** GET /api/indexing-status: the omnichain snapshot, projected to now. */
export function indexingStatusRoutes(service: IndexingStatusService): Hono {
  const responses = new PreparedResponses<string>();
  return new Hono().get("/", async (c) => {
    const snapshot = await service.snapshot();
    if (!snapshot) return c.json({ responseCode: "error" }, 503);
    const now = nowSeconds();
    return c.body(
      responses.get(snapshot, now, "", () => JSON.stringify(projectRealtime(snapshot, now))),
      200,
      JSON_HEADERS,
    );
  });
}

/** GET /amirealtime: 200 when every chain's latest indexed block is within the distance of real time, else 503. */
export function amIRealtimeRoutes(service: IndexingStatusService): Hono {
  const responses = new PreparedResponses<Prepared>();
  return new Hono().get("/", async (c) => {
    // The answer depends on this one parameter only (the schema ignores others), so it keys the prepared responses.
    const raw = c.req.query("maxWorstCaseDistance");
    const snapshot = await service.snapshot();
    const now = nowSeconds();
    const prepared = responses.get(snapshot, now, raw ?? "", () => amIRealtime(raw, snapshot, now));
    if ("invalid" in prepared) return invalidInput(c, prepared.invalid);
    return c.body(prepared.body, prepared.status, JSON_HEADERS);
  });
}

function amIRealtime(raw: string | undefined, snapshot: IndexingSnapshot | undefined, now: number): Prepared {
  const parsed = amIRealtimeQuery.safeParse({ maxWorstCaseDistance: raw });
  if (!parsed.success) return { invalid: parsed.error };
  const maxWorstCaseDistance = parsed.data.maxWorstCaseDistance;
  if (!snapshot) {
    return {
      status: 503,
      body: JSON.stringify({ message: "Indexing has not started yet: no indexing status exists." }),
    };
  }
  const { worstCaseDistance } = projectRealtime(snapshot, now).realtimeProjection;
  const body = {
    maxWorstCaseDistance,
    slowestChainIndexingCursor: snapshot.slowestChainIndexingCursor,
    worstCaseDistance,
  };
  if (worstCaseDistance <= maxWorstCaseDistance) return { status: 200, body: JSON.stringify(body) };
  return {
    status: 503,
    body: JSON.stringify({
      message: `Indexing is not realtime: the worst-case distance is ${worstCaseDistance} s, more than the requested ${maxWorstCaseDistance} s.`,
      ...body,
    }),
  };
}
