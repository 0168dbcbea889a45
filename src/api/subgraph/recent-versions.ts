import { sql } from "drizzle-orm";
import type { BlockRef } from "./at-block";
import { rowsOf, type SubgraphDb } from "./loader";
import { ENTITIES, tableInfo } from "./model";
import { perHeadMemo } from "./per-head";

/*
 * Which history tables have few versions above a block, so that a query at that block reads their live table and
 * asks the history only for the ids changed since (history.ts, "a recent block"). Counted with the BRIN index on the
 * version (ponder.schema.ts), stopping at the limit: a recent block costs a few pages, an old one the limit's rows.
 */

const HISTORY_TABLES = [...ENTITIES.values()].flatMap((e) => (e.history ? [tableInfo(e.history).name] : []));

export type RecentTables = (upTo: bigint, head: BlockRef) => Promise<ReadonlySet<string>>;

/**
 * The history tables with at most `limit` versions above `upTo` (SUBGRAPH_HISTORY_RECENT_VERSIONS); kept per indexed
 * head (a new block adds some). Above the limit the plain history read is chosen: the live side would exclude, and
 * the history side look up, about as many ids as a filter's own index finds in the history.
 */
export function recentTablesOf(db: SubgraphDb, limit: number): RecentTables {
  const memo = perHeadMemo<bigint, ReadonlySet<string>>();
  return (upTo, head) => memo(head, upTo, () => count(db, upTo, limit));
}

async function count(db: SubgraphDb, upTo: bigint, limit: number): Promise<ReadonlySet<string>> {
  const version = sql`${upTo.toString()}::numeric`;
  const result = await db.execute(
    sql.join(
      HISTORY_TABLES.map(
        (table) =>
          sql`SELECT ${table}::text AS "table", (SELECT count(*) FROM (SELECT 1 FROM ${sql.identifier(table)} WHERE "version" > ${version} LIMIT ${limit + 1}) "above") AS "above"`,
      ),
      sql` UNION ALL `,
    ),
  );
  return new Set(rowsOf(result).flatMap((r) => (Number(r.above) <= limit ? [String(r.table)] : [])));
}
