import { Batcher } from "./batch";
import type { OmnigraphContext } from "./context";
import { type DomainRow, domainsByIdQuery } from "./domain-sql";

/** Domains by id (node), every lookup of one level of the answer in one statement. */
export function loadDomain(ctx: OmnigraphContext, id: string): Promise<DomainRow | null> {
  return ctx
    .batcher(
      "domain-by-id",
      () =>
        new Batcher<string, DomainRow | null>(async (ids) => {
          const rows = await ctx.query<DomainRow>(domainsByIdQuery(ids));
          return new Map(rows.map((r) => [r.id, r]));
        }, null),
    )
    .load(id.toLowerCase());
}
