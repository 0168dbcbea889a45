import { LabelServiceError, MESSAGES } from "../errors.js";
import type { LabelSetPin } from "../label-set.js";
import { normalizeLabelhash } from "../labelhash.js";
import type { LabelStore } from "../store/label-store.js";
import { maxVersionFor } from "../store/pin.js";

/**
 * The store when it serves a completed label set, with what it serves; 503 otherwise. The readiness check is
 * one SQLite round per event-loop turn (see LabelStore), not per request.
 */
export function servedStore(getStore: () => LabelStore | null): {
  store: LabelStore;
  served: ReturnType<LabelStore["requireReady"]>;
} {
  const store = getStore();
  if (store === null)
    throw new LabelServiceError(503, "Label database is not ready: no database file yet; run the ingest command");
  return { store, served: store.requireReady() };
}

/** The store when it serves a completed label set; 503 otherwise. */
export function readyStore(getStore: () => LabelStore | null): LabelStore {
  return servedStore(getStore).store;
}

/**
 * One heal, in the spec's order: a bad labelhash is 400 before the database is consulted, then 503 when
 * not ready, then the pin checks (400), then the label or null (404). The pin has already been validated.
 * "Not found" is a return value, not an exception: misses are common and capturing a stack costs more than the lookup.
 */
export function healOne(getStore: () => LabelStore | null, rawLabelhash: string, pin: LabelSetPin): string | null {
  const labelhash = normalizeLabelhash(rawLabelhash);
  if (labelhash === null) throw new LabelServiceError(400, MESSAGES.invalidLabelhash);
  const { store, served } = servedStore(getStore);
  return store.lookupBytes(Buffer.from(labelhash.slice(2), "hex"), maxVersionFor(pin, served));
}

export const NOT_FOUND_BODY = { status: "error", error: MESSAGES.labelNotFound, errorCode: 404 } as const;
