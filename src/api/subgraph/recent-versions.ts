import { sql } from "drizzle-orm";
import type { BlockRef } from "./at-block";
import type { SubgraphDb } from "./loader";
import { ENTITIES, tableInfo } from "./model";

/*
 * Which history tables have few versions above a block, so that a query at that block reads their live table and
 * asks the history only for the ids changed since (history.ts, "a recent block"). Counted with the BRIN index on the
 * version (ponder.schema.ts), stopping at the limit: a recent block costs a few pages, an old one the limit's rows.
 */

const HISTORY_TABLES = [...ENTITIES.values()].flatMap((e) => (e.history ? [tableInfo(e.history).name] : []));

const rows = (r: unknown) =>
  (Array.isArray(r) ? r : ((r as { rows?: unknown[] }).rows ?? [])) as Record<string, unknown>[];

export type RecentTables = (upTo: bigint, head: BlockRef) => Promise<ReadonlySet<string>>;

/**
 * The history tables with at most `limit` versions above `upTo` (SUBGRAPH_HISTORY_RECENT_VERSIONS); kept per indexed
 * head (a new block adds some). Above the limit the plain history read is chosen: the live side would exclude, and
 * the history side look up, about as many ids as a filter's own index finds in the history.
 */
export function recentTablesOf(db: SubgraphDb, limit: number): RecentTables {
  let headKey = "";
  const known = new Map<bigint, Promise<ReadonlySet<string>>>();
  return (upTo, head) => {
    const key = `${head.number}:${head.hash}`;
    if (key !== headKey) {
      headKey = key;
      known.clear();
    }
    let pending = known.get(upTo);
    if (!pending) {
      pending = count(db, upTo, limit);
      if (known.size >= 1000) known.delete(known.keys().next().value!);
      known.set(upTo, pending);
      pending.catch(() => known.get(upTo) === pending && known.delete(upTo));
    }
    return pending;
  };
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
  return new Set(rows(result).flatMap((r) => (Number(r.above) <= limit ? [String(r.table)] : [])));
}
