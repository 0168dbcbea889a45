import { Batcher } from "./batch";
import type { OmnigraphContext } from "./context";
import { type Connection, emptyConnection, encodeCursor, toConnection } from "./cursor";
import {
  type DomainListArgs,
  type DomainRow,
  type DomainScope,
  domainCountQuery,
  domainPageQuery,
  type ListedDomainRow,
} from "./domain-sql";
import { type DomainModel, v1Domain } from "./model";

/**
 * A page of domains for one key of a scope (a parent's children, an owner's names). Pages asked with the same
 * arguments at the same level of the answer share one statement; their counts share another.
 */
export function domainConnection(
  ctx: OmnigraphContext,
  scope: DomainScope,
  key: string,
  args: DomainListArgs,
): Promise<Connection<DomainModel>> {
  const signature = `${scope.kind}:${JSON.stringify(args)}`;
  const pages = ctx.batcher(
    `domains:${signature}`,
    () =>
      new Batcher<string, ListedDomainRow[]>(async (keys) => {
        const { query } = domainPageQuery(scope, keys, args);
        const rows = await ctx.query<ListedDomainRow>(query);
        const byKey = new Map<string, ListedDomainRow[]>();
        for (const row of rows) {
          const list = byKey.get(row.scope) ?? [];
          list.push(row);
          byKey.set(row.scope, list);
        }
        return byKey;
      }, []),
  );
  const counts = ctx.batcher(
    `domain-counts:${signature}`,
    () =>
      new Batcher<string, number>(async (keys) => {
        const rows = await ctx.query<{ scope: string; count: number }>(domainCountQuery(scope, keys, args));
        return new Map(rows.map((r) => [r.scope, Number(r.count)]));
      }, 0),
  );
  return pages.load(key).then((rows) =>
    toConnection(
      rows,
      args,
      (row) => encodeCursor(String(row.sort_key), row.id),
      (row) => v1Domain(row as DomainRow),
      () => counts.load(key),
    ),
  );
}

export const noDomains = (): Connection<DomainModel> => emptyConnection();
