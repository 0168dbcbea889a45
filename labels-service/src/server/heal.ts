import { LabelServiceError, MESSAGES } from "../errors.js";
import type { LabelSetPin } from "../label-set.js";
import { normalizeLabelhash } from "../labelhash.js";
import type { LabelStore } from "../store/label-store.js";

/** The store when it serves a completed label set; 503 otherwise. */
export function readyStore(getStore: () => LabelStore | null): LabelStore {
  const store = getStore();
  if (store === null) throw new LabelServiceError(503, "Label database is not ready: no database file yet; run the ingest command");
  store.requireReady();
  return store;
}

/**
 * One heal, in the spec's order: a bad labelhash is 400 before the database is consulted, then 503 when
 * not ready, then the pin checks (400), then 404 or the label. The pin has already been validated.
 */
export function healOne(getStore: () => LabelStore | null, rawLabelhash: string, pin: LabelSetPin): string {
  const labelhash = normalizeLabelhash(rawLabelhash);
  if (labelhash === null) throw new LabelServiceError(400, MESSAGES.invalidLabelhash);
  const store = readyStore(getStore);
  const label = store.lookupBytes(Buffer.from(labelhash.slice(2), "hex"), store.maxVersion(pin));
  if (label === null) throw new LabelServiceError(404, MESSAGES.labelNotFound);
  return label;
}
