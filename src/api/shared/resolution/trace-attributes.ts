import type { Address } from "viem";
import type { RecordsAnswer, RecordsRequest } from "./records";
import { FORWARD_RESOLUTION, type StepSpan } from "./trace";

/*
 * What a resolution step writes into its span: the records asked, the resolver found, each record read. Generic over
 * the answer's keys, so a record kind added to RecordsAnswer shows in the trace without a change here.
 */

const jsonSafe = (_: string, v: unknown) => (typeof v === "bigint" ? v.toString() : v);

/** The records asked, as the peer's `selection` attribute: JSON, coin types as decimal strings. */
export function selectionAttribute(request: RecordsRequest): string {
  return JSON.stringify(request, jsonSafe);
}

/**
 * The peer's find-resolver outcome: the resolver, the name it was found at (the active name) and whether it answers
 * for a descendant (ENSIP-10 wildcard: the resolver must then be extended).
 */
export function describeFoundResolver(
  span: StepSpan,
  name: string,
  found: { resolver: Address; index: number } | undefined,
): void {
  span.set("activeResolver", found?.resolver);
  span.set("activeName", found ? name.split(".").slice(found.index).join(".") : undefined);
  span.set("requiresWildcardSupport", found ? found.index > 0 : undefined);
}

/** One `read-record (<value>)` event per record in the answer (`null` when unset), naming the record and its key. */
export function recordEvents(span: StepSpan, answer: RecordsAnswer, source: "index" | "chain"): void {
  if (!span.recording) return;
  for (const [record, value] of Object.entries(answer)) {
    if (value !== null && typeof value === "object") {
      for (const [key, item] of Object.entries(value as Record<string, unknown>))
        span.event(FORWARD_RESOLUTION, "read-record", shown(item), { record, key, source });
    } else {
      span.event(FORWARD_RESOLUTION, "read-record", shown(value), { record, source });
    }
  }
}

const shown = (value: unknown): string => (value === null || value === undefined ? "null" : String(value));
