import { sql } from "drizzle-orm";
import type { BlockRef } from "./at-block";
import type { RecentTables } from "./history";
import { rowsOf, type SubgraphDb } from "./loader";
import { ENTITIES, tableInfo } from "./model";
import { perHeadMemo } from "./per-head";

/*
 * Which history tables have few versions above a block, so that a query at that block reads their live table and
 * asks the history only for the ids changed since (history.ts, "a recent block"). Counted with the BRIN index on the
 * version (ponder.schema.ts), stopping at the limit: a recent block costs a few pages, an old one the limit's rows.
 * Where at most NAMED_VERSIONS versions lie above it, their ids come along, for the statements to hold as a constant.
 */

const HISTORY_TABLES = [...ENTITIES.values()].flatMap((e) => (e.history ? [tableInfo(e.history).name] : []));

/** Up to this many versions above a block, statements name the changed ids (an array of at most this many). */
const NAMED_VERSIONS = 256;

export type RecentTablesOf = (upTo: bigint, head: BlockRef) => Promise<RecentTables>;

/**
 * The history tables with at most `limit` versions above `upTo` (SUBGRAPH_HISTORY_RECENT_VERSIONS), kept per indexed
 * head (a new block adds some). Above the limit the plain history read is chosen: the live side would exclude, and
 * the history side look up, about as many ids as a filter's own index finds in the history.
 */
export function recentTablesOf(db: SubgraphDb, limit: number): RecentTablesOf {
  const memo = perHeadMemo<bigint, RecentTables>();
  return (upTo, head) => memo(head, upTo, () => count(db, upTo, limit));
}

async function count(db: SubgraphDb, upTo: bigint, limit: number): Promise<RecentTables> {
  const version = sql`${upTo.toString()}::numeric`;
  // One pass over up to `limit + 1` versions: their count, and the distinct ids of the first NAMED_VERSIONS + 1
  // (all of them whenever they are named).
  const above = (table: string) =>
    sql`SELECT "id", row_number() OVER () AS "n" FROM ${sql.identifier(table)} WHERE "version" > ${version} LIMIT ${limit + 1}`;
  const result = await db.execute(
    sql.join(
      HISTORY_TABLES.map(
        (table) =>
          sql`SELECT ${table}::text AS "table", count(*) AS "above", array_to_json(array_agg(DISTINCT "id") FILTER (WHERE "n" <= ${NAMED_VERSIONS + 1}))::text AS "ids" FROM (${above(table)}) "a"`,
      ),
      sql` UNION ALL `,
    ),
  );
  const recent = new Map<string, readonly string[] | null>();
  for (const r of rowsOf(result)) {
    const versions = Number(r.above);
    if (versions > limit) continue;
    recent.set(
      String(r.table),
      versions > NAMED_VERSIONS ? null : r.ids ? (JSON.parse(String(r.ids)) as string[]) : [],
    );
  }
  return recent;
}
