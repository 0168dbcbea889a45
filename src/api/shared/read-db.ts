import type { SQL } from "drizzle-orm";

/** What the API needs from a database handle: drizzle's `execute` (Ponder's read-only db, node-postgres or PGlite). */
export interface SqlDb {
  execute(query: SQL): Promise<unknown>;
}

export function rowsOf<T = Record<string, unknown>>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
