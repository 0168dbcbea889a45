import type { PgTable } from "drizzle-orm/pg-core";
import { HISTORY_TABLES } from "../../../lib/entity-history/tables";
import type { PonderBatchTransaction } from "../../../runtime/ponder-hooks";
import { arrayLiteral, type Row, shapeOf } from "./rows";

/*
 * The entity history's `valid_to` for the versions a backfill batch holds, settled by the batch instead of by the
 * database's trigger row by row (src/lib/entity-history/valid-to-trigger.ts). The trigger, for each inserted version, probes the
 * (id, version) key twice (its successor, its predecessor) and updates the predecessor: at 50,000 names that was most
 * of the COPY's cost. A batch knows its versions of an id in order, so each one's `valid_to` is the next one's version
 * and the last one's NULL (the backfill indexes in omnichain order: no later version of the id exists yet); the COPY
 * writes them as they are, which the trigger leaves alone. What is left is one statement per table that closes the
 * version each id had before the batch, the same rule as the trigger's: the greatest one below the batch's first.
 */

const isHistory = new Set<PgTable>(HISTORY_TABLES);

export const isHistoryTable = (table: PgTable): boolean => isHistory.has(table);

/** The first version per id of the batch, for `closePreviousVersions`. */
export interface FirstVersions {
  ids: string[];
  versions: string[];
}

/** Sets each held version's `valid_to` from the batch's versions of its id; returns each id's first. */
export function settleValidTo(rows: Iterable<Row>): FirstVersions {
  const byId = new Map<string, Row[]>();
  for (const row of rows) {
    const id = row.id as string;
    const versions = byId.get(id);
    if (versions === undefined) byId.set(id, [row]);
    else versions.push(row);
  }
  const first: FirstVersions = { ids: [], versions: [] };
  for (const [id, versions] of byId) {
    // Held in first-write order, which is version order; a sort costs nothing for the one or two an id has.
    versions.sort((a, b) => ((a.version as bigint) < (b.version as bigint) ? -1 : 1));
    for (let i = 0; i < versions.length; i++) versions[i]!.validTo = versions[i + 1]?.version ?? null;
    first.ids.push(id);
    first.versions.push((versions[0]!.version as bigint).toString());
  }
  return first;
}

/** Closes, in the batch's transaction, the version each id had before the batch's first. */
export async function closePreviousVersions(
  tx: PonderBatchTransaction,
  table: PgTable,
  first: FirstVersions,
): Promise<void> {
  if (first.ids.length === 0) return;
  const t = shapeOf(table).target;
  await tx.$client.query(
    `UPDATE ${t} AS p SET valid_to = b.first
       FROM unnest($1::text[], $2::numeric[]) AS b(id, first)
      WHERE p.id = b.id
        AND p.version = (SELECT max(m.version) FROM ${t} AS m WHERE m.id = b.id AND m.version < b.first)
        AND p.valid_to IS DISTINCT FROM b.first`,
    [arrayLiteral(first.ids), arrayLiteral(first.versions)],
  );
}
