import { sql } from "drizzle-orm";
import { HISTORY_TABLE_NAMES } from "../../lib/entity-history/tables";
import { rowsOf } from "../../lib/sql-rows";
import type { BlockRef } from "./at-block";
import type { SubgraphDb } from "./loader";
import { perHeadMemo } from "./per-head";
import type { UnchangedTables } from "./reading";

/*
 * Which history tables have no version above a block, so that a query at that block reads their live table, as at
 * the head (history.ts). One statement for the five tables, each an EXISTS over the BRIN index on the version
 * (ponder.schema.ts): a few pages, whatever the depth. Kept per indexed head, since a new block may add versions.
 */

export type UnchangedTablesOf = (upTo: bigint, head: BlockRef) => Promise<UnchangedTables>;

export function unchangedTablesOf(db: SubgraphDb): UnchangedTablesOf {
  const memo = perHeadMemo<bigint, UnchangedTables>();
  return (upTo, head) => memo(head, upTo, () => find(db, upTo));
}

async function find(db: SubgraphDb, upTo: bigint): Promise<UnchangedTables> {
  const version = sql`${upTo.toString()}::numeric`;
  const result = await db.execute(
    sql.join(
      HISTORY_TABLE_NAMES.map(
        (table) =>
          sql`SELECT ${table}::text AS "table" WHERE NOT EXISTS (SELECT 1 FROM ${sql.identifier(table)} WHERE "version" > ${version})`,
      ),
      sql` UNION ALL `,
    ),
  );
  return new Set(rowsOf(result).map((r) => String(r.table)));
}
