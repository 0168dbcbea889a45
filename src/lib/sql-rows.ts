/**
 * A statement's rows, whichever driver answered drizzle's `execute`: an array, or node-postgres' and PGlite's
 * `{ rows }`. The API and the work beside indexing read through Ponder's clients, which answer either way.
 */
export function rowsOf<T = Record<string, unknown>>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return (result as { rows?: T[] } | null | undefined)?.rows ?? [];
}
