import type { SQL } from "drizzle-orm";

/** What the API needs from a database handle: drizzle's `execute` (Ponder's read-only db, node-postgres or PGlite). */
export interface SqlDb {
  execute(query: SQL): Promise<unknown>;
}
