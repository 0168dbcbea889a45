import type { SQL } from "drizzle-orm";
import { Batcher } from "./batch";
import type { OmnigraphContext } from "./context";
import { type DomainRow, domainsByIdQuery } from "./domain-sql";

/**
 * One row by key (lowercased), every lookup of one level of the answer in one statement: `query` fetches the rows of
 * many keys, `keyOf` reads a row's key back.
 */
export function loadRowByKey<Row>(
  ctx: OmnigraphContext,
  name: string,
  query: (keys: string[]) => SQL,
  keyOf: (row: Row) => string,
  key: string,
): Promise<Row | null> {
  return ctx
    .batcher(
      name,
      () =>
        new Batcher<string, Row | null>(async (keys) => {
          const rows = await ctx.query<Row>(query(keys));
          return new Map(rows.map((r) => [keyOf(r), r]));
        }, null),
    )
    .load(key.toLowerCase());
}

/** Domains by id (node), every lookup of one level of the answer in one statement. */
export function loadDomain(ctx: OmnigraphContext, id: string): Promise<DomainRow | null> {
  return loadRowByKey(ctx, "domain-by-id", domainsByIdQuery, (r: DomainRow) => r.id, id);
}
