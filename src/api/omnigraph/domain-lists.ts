import { type SQL, sql } from "drizzle-orm";
import { Batcher } from "./batch";
import type { OmnigraphContext } from "./context";
import { type Connection, emptyConnection, encodeCursor, pageWindow, toConnection } from "./cursor";
import { loadDomain } from "./domain-loader";
import {
  type DomainListArgs,
  type DomainRow,
  type DomainScope,
  domainCountQuery,
  domainPageQuery,
  type ListedDomainRow,
  tableCountQuery,
  tablePageQuery,
  V1_DOMAINS,
} from "./domain-sql";
import { loadV2Domain } from "./ensv2/loaders";
import { type AnyDomainModel, v2Domain } from "./ensv2/model";
import { V2_DOMAINS, type V2DomainScope } from "./ensv2/sql";
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

/** The scopes a list has in each version: ENSv1's, ENSv2's, or both (one merged list). */
export interface VersionedScope {
  v1?: DomainScope;
  v2?: V2DomainScope;
}

interface MergedRow {
  version: "ENSv1" | "ENSv2";
  id: string;
  scope: string;
  sort_key: string | number;
}

/**
 * A page of domains of both versions for one key: each version's page (keyset on the same order key, then id), merged
 * and cut in the same statement, then each row loaded by id (one statement per version per level).
 */
export function versionedDomainConnection(
  ctx: OmnigraphContext,
  scopes: VersionedScope,
  key: string,
  args: DomainListArgs,
): Promise<Connection<AnyDomainModel>> {
  if (scopes.v1 && !scopes.v2) return domainConnection(ctx, scopes.v1, key, args);
  const { size, backward } = pageWindow(args);
  const descending = (args.order?.dir === "DESC") !== backward;
  const dir = sql.raw(descending ? "desc" : "asc");
  const signature = `${JSON.stringify(scopes)}:${JSON.stringify(args)}`;
  const parts = (keys: string[]) => {
    const out: SQL[] = [];
    if (scopes.v1)
      out.push(tablePageQuery(V1_DOMAINS, scopes.v1, keys, args, sql.raw("'ENSv1' as version, d.id")).query);
    if (scopes.v2)
      out.push(tablePageQuery(V2_DOMAINS, scopes.v2, keys, args, sql.raw("'ENSv2' as version, d.id")).query);
    return sql.join(
      out.map((q) => sql`(${q})`),
      sql` union all `,
    );
  };
  const pages = ctx.batcher(
    `versioned-domains:${signature}`,
    () =>
      new Batcher<string, MergedRow[]>(async (keys) => {
        const rows = await ctx.query<MergedRow>(
          sql`select version, id, scope, sort_key from (select u.version, u.id, u.scope, u.sort_key, row_number() over (partition by u.scope order by u.sort_key ${dir}, u.id ${dir}) as merged_rn from (${parts(keys)}) u) m where merged_rn <= ${size + 1} order by scope, merged_rn`,
        );
        const byKey = new Map<string, MergedRow[]>();
        for (const row of rows) byKey.set(row.scope, [...(byKey.get(row.scope) ?? []), row]);
        return byKey;
      }, []),
  );
  const counts = ctx.batcher(
    `versioned-domain-counts:${signature}`,
    () =>
      new Batcher<string, number>(async (keys) => {
        const each: SQL[] = [];
        if (scopes.v1) each.push(tableCountQuery(V1_DOMAINS, scopes.v1, keys, args));
        if (scopes.v2) each.push(tableCountQuery(V2_DOMAINS, scopes.v2, keys, args));
        const rows = await ctx.query<{ scope: string; count: number }>(
          sql`select scope, sum(count)::int as count from (${sql.join(
            each.map((q) => sql`(${q})`),
            sql` union all `,
          )}) c group by scope`,
        );
        return new Map(rows.map((r) => [r.scope, Number(r.count)]));
      }, 0),
  );
  return pages.load(key).then(async (rows) => {
    const nodes = await Promise.all(
      rows.map(async (row): Promise<AnyDomainModel | null> => {
        if (row.version === "ENSv2") {
          const v2 = await loadV2Domain(ctx, row.id);
          return v2 ? v2Domain(v2) : null;
        }
        const v1 = await loadDomain(ctx, row.id);
        return v1 ? v1Domain(v1) : null;
      }),
    );
    const loaded = rows.map((row, i) => ({ row, node: nodes[i] })).filter((x) => x.node !== null);
    return toConnection(
      loaded,
      args,
      (x) => encodeCursor(String(x.row.sort_key), x.row.id),
      (x) => x.node!,
      () => counts.load(key),
    );
  });
}
