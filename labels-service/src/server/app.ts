import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { ZodError } from "zod";
import { LabelServiceError, MESSAGES } from "../errors.js";
import { type Labelhash, normalizeLabelhash } from "../labelhash.js";
import type { LabelStore } from "../store/label-store.js";
import { maxVersionFor } from "../store/pin.js";
import { SERVICE_VERSION } from "../version.js";
import { allowAnyOrigin } from "./cors.js";
import { healOne, NOT_FOUND_BODY, readyStore, servedStore } from "./heal.js";
import { batchBodySchema, MAX_BATCH, MAX_BATCH_BODY_BYTES, pinQuerySchema } from "./request-schemas.js";

type ErrorStatus = LabelServiceError["status"];

function errorBody(c: Context, status: ErrorStatus, message: string) {
  return c.json({ status: "error", error: message, errorCode: status }, status);
}

function firstIssue(error: ZodError): string {
  const issue = error.issues[0];
  return issue.path.length > 0 && typeof issue.path[0] === "number"
    ? `${issue.message} (at index ${issue.path[0]})`
    : issue.message;
}

/** Parses the label set pin of a heal request; 400 on bad parameters. */
function pinOf(c: Context) {
  if (!c.req.url.includes("?")) return {};
  const parsed = pinQuerySchema.safeParse({
    label_set_id: c.req.query("label_set_id"),
    label_set_version: c.req.query("label_set_version"),
  });
  if (!parsed.success) throw new LabelServiceError(400, firstIssue(parsed.error));
  return parsed.data;
}

/**
 * The label healing HTTP API (ENSRainbow-compatible, plus batch healing). Validation happens first,
 * so bad input is a 400 whatever state the database is in; readiness (503) comes next, then the lookup.
 */
export function createLabelsApp(getStore: () => LabelStore | null): Hono {
  const app = new Hono();

  app.use("/v1/*", allowAnyOrigin());

  app.get("/health", (c) => c.json({ status: "ok" }));

  const heal = (c: Context) => {
    const pin = pinOf(c);
    const label = healOne(getStore, c.req.param("labelhash") ?? "", pin);
    return label === null ? c.json(NOT_FOUND_BODY, 404) : c.json({ status: "success", label });
  };
  app.get("/v1/heal/:labelhash", heal);
  app.get("/v1/heal", heal);
  app.get("/v1/heal/", heal);

  app.post(
    "/v1/heal",
    bodyLimit({
      maxSize: MAX_BATCH_BODY_BYTES,
      onError: (c) => {
        // The rest of the body is never read, so this connection cannot carry another request.
        c.header("Connection", "close");
        return errorBody(
          c,
          413,
          `Request body too large: at most ${MAX_BATCH_BODY_BYTES} bytes (256 KiB) and ${MAX_BATCH} labelhashes per request`,
        );
      },
    }),
    async (c) => {
      const pin = pinOf(c);
      let body: unknown;
      try {
        body = JSON.parse(await c.req.text());
      } catch {
        throw new LabelServiceError(400, "The request body must be a JSON array of labelhash strings");
      }
      const parsed = batchBodySchema.safeParse(body);
      if (!parsed.success) throw new LabelServiceError(400, firstIssue(parsed.error));
      const labelhashes: Labelhash[] = [];
      for (const [index, input] of parsed.data.entries()) {
        const labelhash = normalizeLabelhash(input);
        if (labelhash === null) throw new LabelServiceError(400, `${MESSAGES.invalidLabelhash} (at index ${index})`);
        labelhashes.push(labelhash);
      }
      const { store, served } = servedStore(getStore);
      const maxVersion = maxVersionFor(pin, served);
      const labels: Record<string, string | null> = {};
      for (const labelhash of labelhashes)
        labels[labelhash] = store.lookupBytes(Buffer.from(labelhash.slice(2), "hex"), maxVersion);
      return c.json({ status: "success", labels });
    },
  );

  app.get("/v1/labels/count", (c) => {
    const store = getStore();
    const readiness = store?.readiness();
    if (!readiness?.ready) {
      const reason = readiness?.reason ?? "no database file yet";
      throw new LabelServiceError(503, `${MESSAGES.countNotInitialized} (${reason})`);
    }
    return c.json({ status: "success", count: readiness.recordsCount, timestamp: new Date().toISOString() });
  });

  app.get("/v1/config", (c) => {
    const config = readyStore(getStore).config();
    return c.json({
      version: SERVICE_VERSION,
      labelSet: { labelSetId: config.labelSetId, highestLabelSetVersion: config.highestLabelSetVersion },
      recordsCount: config.recordsCount,
      schemaVersion: config.schemaVersion,
    });
  });

  app.notFound((c) => errorBody(c, 404, MESSAGES.notFoundRoute));

  app.onError((error, c) => {
    if (error instanceof LabelServiceError) return errorBody(c, error.status, error.message);
    console.error("labels-service: unexpected error", error);
    return errorBody(c, 500, MESSAGES.internal);
  });

  return app;
}
