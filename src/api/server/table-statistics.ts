import { type SQL, sql } from "drizzle-orm";
import { rowsOf } from "../../lib/sql-rows";

interface Executor {
  execute(query: SQL): Promise<unknown>;
}

/*
 * Without planner statistics every API query is planned as if each table were a few pages of unknown contents, and
 * some plans then grow with the index: `domain` by name with its registration embedded walked the whole
 * `registration` table in id order for each answer (a 10,000-name devnet on PostgreSQL: 4.1 ms of database CPU per
 * query, 0.6 ms once analyzed; PGlite: 17 against 6 ms). Nothing else gives the indexer's tables statistics in time:
 * PGlite runs no autovacuum; PostgreSQL's may be off (it is on some managed and test servers), and when on it
 * analyzes a table only once it has changed by a tenth since its last analysis, on its own schedule.
 *
 * So this ANALYZEs every table once Ponder reports the backfill complete (`_ponder_meta.is_ready`), and, where no
 * autovacuum runs (PGlite, or PostgreSQL with `autovacuum` off), again when a table has grown by a tenth since
 * (autovacuum's default `autovacuum_analyze_scale_factor`). One statement per table: the API's PostgreSQL sessions
 * have a 30 s statement timeout, and a table samples at most 30,000 rows whatever its size. ANALYZE is allowed in
 * the API's read-only sessions, but not on a standby ("cannot execute ANALYZE during recovery"): only `ponder start`
 * runs this loop, and its statistics reach the standbys with the rest of the database.
 *
 * Growth is measured in pages (`pg_relation_size` against the `relpages` ANALYZE recorded), not with
 * `pg_stat_user_tables.n_mod_since_analyze`: PGlite's single-user backend never flushes its activity counters, which
 * stay 0. Updates add row versions too, so they count as growth until the pages are reused.
 *
 * Each statement runs outside Ponder's transactions (PGlite runs one statement or transaction at a time): ANALYZE
 * samples at most 30,000 rows per table, ~0.1–0.3 s for the whole index on a 10,000-name devnet, during which the
 * indexer waits once. It only writes pg_statistic and pg_class, never the index's rows.
 */

export interface StatisticsOptions {
  /** Ponder's API database (on PGlite: the indexer's own session). */
  db: Executor;
  /** PGlite never runs autovacuum; on PostgreSQL the server's `autovacuum` setting is read. */
  database: "pglite" | "postgres";
  /** The indexer's schema (DATABASE_SCHEMA). */
  schema: string;
  /** The tables to keep analyzed (ours, not Ponder's internal ones). */
  tables: readonly string[];
  /** Until the backfill completes: how often `is_ready` is read. */
  readyPollMs?: number;
  /** After it: how often table growth is checked. */
  growthPollMs?: number;
  /** Called after each ANALYZE with the tables and the time it took (logging, tests). */
  onAnalyze?: (tables: string[], ms: number) => void;
  onError?: (error: unknown) => void;
}

/** Pages a table must have grown by, beyond a tenth of its analyzed size, before it is analyzed again. */
const MIN_GROWTH_PAGES = 8;

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Starts the loop; returns its stop function. */
export function keepTablesAnalyzed(options: StatisticsOptions): () => void {
  const { db, schema, tables } = options;
  const readyPollMs = options.readyPollMs ?? 2_000;
  const growthPollMs = options.growthPollMs ?? 60_000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let ready = false;
  let analyzedOnce = false;
  /** Whether anything maintains statistics after the first ANALYZE (read once, after the backfill). */
  let autovacuum: boolean | undefined;

  const isReady = async () => {
    const rows = rowsOf(
      await db.execute(sql`SELECT value FROM ${sql.raw(quote(schema))}."_ponder_meta" WHERE key = 'app'`),
    );
    const value = rows[0]?.value as { is_ready?: number } | string | undefined;
    const meta = typeof value === "string" ? (JSON.parse(value) as { is_ready?: number }) : value;
    return meta?.is_ready === 1;
  };

  /** Our tables grown by a tenth (and a few pages) since their last ANALYZE. */
  const grownTables = async (): Promise<string[]> => {
    const rows = rowsOf(
      await db.execute(sql`
        SELECT c.relname AS name
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = ${schema} AND c.relkind = 'r' AND c.relname = ANY(${sql.param([...tables])}::text[])
          AND pg_relation_size(c.oid) / current_setting('block_size')::int > c.relpages * 1.1 + ${MIN_GROWTH_PAGES}
        ORDER BY c.relname`),
    );
    return rows.map((row) => String(row.name));
  };

  const tick = async () => {
    if (!ready) ready = await isReady();
    if (!ready) return readyPollMs;
    // Every table once (`reltuples` is no sign of an ANALYZE: Ponder's CREATE INDEX after the backfill sets it too,
    // without any column statistics), then those that grew.
    const stale = analyzedOnce ? await grownTables() : [...tables].sort();
    if (stale.length > 0 && !stopped) {
      const started = performance.now();
      for (const name of stale) {
        if (stopped) return undefined;
        await db.execute(sql.raw(`ANALYZE ${quote(schema)}.${quote(name)}`));
      }
      options.onAnalyze?.(stale, performance.now() - started);
    }
    analyzedOnce = true;
    autovacuum ??= options.database === "postgres" && (await autovacuumRuns());
    // Where autovacuum runs, it keeps the statistics from here on.
    return autovacuum ? undefined : growthPollMs;
  };

  const autovacuumRuns = async () => {
    const rows = rowsOf(await db.execute(sql`SELECT current_setting('autovacuum') = 'on' AS on`));
    return rows[0]?.on === true;
  };

  const schedule = (ms: number | undefined) => {
    if (stopped || ms === undefined) return;
    timer = setTimeout(() => {
      tick().then(schedule, (error: unknown) => {
        // The tables may not exist yet (a new schema), or the database is closing: try again later.
        options.onError?.(error);
        schedule(readyPollMs);
      });
    }, ms);
    timer.unref();
  };
  schedule(0);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
