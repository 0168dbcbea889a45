/*
 * PostgreSQL reuses the room an updated row's old version leaves only once a VACUUM has recorded it; until then new
 * rows go to new pages. The backfill updates many rows (Ponder's flush rewrites an updated row whole, and each entity
 * history version is updated once, when the next is written), so on a server whose autovacuum is off (some managed
 * and test servers) the index keeps that room for good: at 10,000 devnet names the schema was 7.6 % larger, the
 * history tables a quarter free and a fifth dead (docs/benchmarks.md, "Where a table's bytes go"). Autovacuum needs
 * `track_counts` too. The planner's statistics are kept either way (table-statistics.ts).
 */
const AUTOVACUUM_PROBE =
  "SELECT current_setting('autovacuum') = 'on' AND current_setting('track_counts') = 'on' AS autovacuum";

/** A warning for the operator when the server runs no autovacuum; undefined when it does. */
export async function autovacuumWarning(
  readSql: (query: string) => Promise<Record<string, unknown>[]>,
): Promise<string | undefined> {
  const [row] = await readSql(AUTOVACUUM_PROBE);
  if (row?.autovacuum === true) return undefined;
  return (
    "PostgreSQL's autovacuum is off on this server (or track_counts is): the room rows updated while indexing leave " +
    "behind is not reused for new rows, so the index grows larger than it needs to (~8 % at 10,000 devnet names, a " +
    "quarter of the entity history tables). Turn autovacuum on, or VACUUM the index's tables from time to time " +
    '(docs/operations.md, "Size").'
  );
}
