/*
 * Reliability tests run in two sizes: a reduced one inside `npm test` (fits CI) and the full one of
 * `npm run test:reliability` (RELIABILITY=full). Each test reads its knobs from here so the two stay in one place.
 */
export type ReliabilitySize = "ci" | "full";

export const reliabilitySize: ReliabilitySize = process.env.RELIABILITY === "full" ? "full" : "ci";

/** Picks the value for the current size. */
export function bySize<T>(sizes: { ci: T; full: T }): T {
  return sizes[reliabilitySize];
}

/** Reliability tests print what they tried and what held; one prefix makes that easy to grep in CI logs. */
export function report(test: string, message: string): void {
  console.log(`[reliability:${test}] ${message}`);
}
