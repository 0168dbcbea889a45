import { type SQL, sql } from "drizzle-orm";
import { GraphQLError } from "graphql";
import { type CountedList, listCountId } from "../../lib/list-counts";
import { Batcher } from "./batch";
import type { OmnigraphContext } from "./context";
import type { VersionedScope } from "./domain-scope";
import { cappedCountQuery, type DomainListArgs, type DomainScope, isUnfiltered, V1_DOMAINS } from "./domain-sql";
import { V2_DOMAINS, type V2DomainScope } from "./ensv2/sql";
import { list } from "./keyset";
import { MAX_FILTERED_COUNT } from "./limits";

/*
 * `totalCount` of a domain list. An unfiltered list's length is kept by the indexer (`domain_list_count`,
 * src/lib/list-counts.ts): one read by key, however long the list (`eth` has millions of children on mainnet). A
 * filtered list is counted, at most MAX_FILTERED_COUNT rows per list. Either way the counts asked at one level of
 * the answer share one statement.
 */

/** The kept count of each scope's lists; null where none is kept (`all`, which is always filtered). */
const V1_KEPT: Record<DomainScope["kind"], CountedList | null> = {
  children: "v1-children",
  owner: "v1-owner",
  all: null,
};
const V2_KEPT: Record<V2DomainScope["kind"], CountedList | null> = {
  registry: "v2-registry",
  owner: "v2-owner",
  all: null,
};

export function domainListCount(
  ctx: OmnigraphContext,
  scopes: VersionedScope,
  key: string,
  args: DomainListArgs,
): Promise<number> {
  const kept = [scopes.v1 && V1_KEPT[scopes.v1.kind], scopes.v2 && V2_KEPT[scopes.v2.kind]];
  const lists = kept.filter((l): l is CountedList => typeof l === "string");
  const scopeCount = (scopes.v1 ? 1 : 0) + (scopes.v2 ? 1 : 0);
  if (isUnfiltered(args) && lists.length === scopeCount) return keptCount(ctx, lists, key);
  return filteredCount(ctx, scopes, key, args);
}

/** The sum of `lists`' kept counts for `key` (a list nothing ever joined has no row: 0). */
function keptCount(ctx: OmnigraphContext, lists: CountedList[], key: string): Promise<number> {
  const counts = ctx.batcher(
    `kept-domain-counts:${lists.join(",")}`,
    () =>
      new Batcher<string, number>(async (keys) => {
        const keyOfId = new Map<string, string>();
        for (const k of keys) for (const l of lists) keyOfId.set(listCountId(l, k), k);
        const rows = await ctx.query<{ id: string; count: number }>(
          sql`select id, count from domain_list_count where id in (${list([...keyOfId.keys()])})`,
        );
        const out = new Map<string, number>();
        for (const row of rows) {
          const k = keyOfId.get(row.id)!;
          out.set(k, (out.get(k) ?? 0) + Number(row.count));
        }
        return out;
      }, 0),
  );
  return counts.load(key);
}

function filteredCount(
  ctx: OmnigraphContext,
  scopes: VersionedScope,
  key: string,
  args: DomainListArgs,
): Promise<number> {
  const filter = { nodes: args.nodes, startsWith: args.startsWith, canonical: args.canonical };
  const counts = ctx.batcher(
    `filtered-domain-counts:${JSON.stringify(scopes)}:${JSON.stringify(filter)}`,
    () =>
      new Batcher<string, number>(async (keys) => {
        const each: SQL[] = [];
        if (scopes.v1) each.push(cappedCountQuery(V1_DOMAINS, scopes.v1, keys, filter, MAX_FILTERED_COUNT));
        if (scopes.v2) each.push(cappedCountQuery(V2_DOMAINS, scopes.v2, keys, filter, MAX_FILTERED_COUNT));
        const rows = await ctx.query<{ scope: string; count: number }>(
          sql`select scope, sum(count)::int as count from (${sql.join(each, sql` union all `)}) c group by scope`,
        );
        return new Map(rows.map((r) => [r.scope, Number(r.count)]));
      }, 0),
  );
  return counts.load(key).then((n) => {
    if (n > MAX_FILTERED_COUNT) {
      throw new GraphQLError(
        `totalCount of a filtered domain list counts at most ${MAX_FILTERED_COUNT} domains and this one has more: narrow the filter, or page through the list without totalCount`,
      );
    }
    return n;
  });
}
