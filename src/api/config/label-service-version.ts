import type { LabelServiceVersion } from "./public-config";

const CACHE_MS = 60_000;
let cached: { at: number; value: LabelServiceVersion } | undefined;
let inFlight: Promise<LabelServiceVersion> | undefined;

/**
 * Asks the label service who it is; remembered for a minute so /api/config stays cheap. Concurrent requests share one
 * question (a burst of /api/config must not become a burst on the label service), and once known, the answer outlives
 * a label service that is briefly slow or down: its version does not change between two of our questions.
 */
export async function fetchLabelServiceVersion(labelsServiceUrl: string): Promise<LabelServiceVersion> {
  if (cached && Date.now() - cached.at < CACHE_MS) return cached.value;
  inFlight ??= ask(labelsServiceUrl).finally(() => {
    inFlight = undefined;
  });
  try {
    return await inFlight;
  } catch (error) {
    if (cached) return cached.value;
    throw error;
  }
}

async function ask(labelsServiceUrl: string): Promise<LabelServiceVersion> {
  const res = await fetch(new URL("/v1/config", labelsServiceUrl), { signal: AbortSignal.timeout(3_000) });
  if (!res.ok) throw new Error(`label service answered ${res.status} on /v1/config`);
  const body = (await res.json()) as { version?: unknown; schemaVersion?: unknown };
  if (typeof body.version !== "string") throw new Error("label service /v1/config has no version");
  const value = {
    version: body.version,
    schemaVersion: typeof body.schemaVersion === "number" ? body.schemaVersion : 0,
  };
  cached = { at: Date.now(), value };
  return value;
}
