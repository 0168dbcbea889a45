import { type SQL, sql } from "drizzle-orm";
import { Batcher } from "./batch";
import type { OmnigraphContext } from "./context";
import { type Connection, emptyConnection, encodeCursor, pageWindow, toConnection } from "./cursor";
import { domainListCount } from "./domain-counts";
import { carryRegistration } from "./domain-loader";
import type { VersionedScope } from "./domain-scope";
import {
  DOMAIN_COLUMNS,
  type DomainListArgs,
  type DomainRow,
  type DomainScope,
  domainPageQuery,
  type ListedDomainRow,
  tablePageQuery,
  V1_DOMAINS,
} from "./domain-sql";
import { loadV2Domain } from "./ensv2/loaders";
import { type AnyDomainModel, v2Domain } from "./ensv2/model";
import { V2_DOMAINS, type V2DomainScope } from "./ensv2/sql";
import { type DomainModel, v1Domain } from "./model";
import { REGISTRATION_COLUMNS, registrationJoins } from "./registration-sql";

/**
 * A page of domains for one key of a scope (a parent's children, an owner's names). Pages asked with the same
 * arguments at the same level of the answer share one statement; their counts share another (domain-counts.ts).
 * `withRegistration` (the query asks for the nodes' registration): the page's statement brings each row's
 * registration too.
 */
export function domainConnection(
  ctx: OmnigraphContext,
  scope: DomainScope,
  key: string,
  args: DomainListArgs,
  withRegistration = false,
): Promise<Connection<DomainModel>> {
  const signature = `${scope.kind}:${JSON.stringify(args)}`;
  const pages = ctx.batcher(
    `domains:${withRegistration ? "+registration:" : ""}${signature}`,
    () =>
      new Batcher<string, ListedDomainRow[]>(async (keys) => {
        const { query } = domainPageQuery(scope, keys, args);
        const rows = await ctx.query<ListedDomainRow>(
          withRegistration ? pageWithRegistrations(query, keys.length > 1, args) : query,
        );
        const byKey = new Map<string, ListedDomainRow[]>();
        let current: ListedDomainRow[] | undefined;
        let currentKey: string | undefined;
        for (const row of rows) {
          if (withRegistration) carryRegistration(row);
          // Rows come grouped by key: look the list up only when the key changes.
          if (row.scope !== currentKey) {
            currentKey = row.scope;
            current = byKey.get(currentKey);
            if (!current) byKey.set(currentKey, (current = []));
          }
          current!.push(row);
        }
        return byKey;
      }, []),
  );
  return pages.load(key).then((rows) =>
    toConnection(
      rows,
      args,
      (row) => encodeCursor(String(row.sort_key), row.id),
      (row) => v1Domain(row as DomainRow),
      () => domainListCount(ctx, { v1: scope }, key, args),
    ),
  );
}

/**
 * A page statement (`domainPageQuery`'s) with each row's registration joined after the page is cut, in the page's
 * order: by key then rank for several keys, by the sort key then id for one.
 */
function pageWithRegistrations(page: SQL, keyed: boolean, args: DomainListArgs): SQL {
  const { backward } = pageWindow(args);
  const dir = sql.raw((args.order?.dir === "DESC") !== backward ? "desc" : "asc");
  const order = keyed ? sql.raw("p.scope, p.rn") : sql`p.sort_key ${dir}, p.id ${dir}`;
  return sql`select p.*, ${REGISTRATION_COLUMNS} from (${page}) p ${registrationJoins(sql.raw("p.id"))} order by ${order}`;
}

export const noDomains = (): Connection<DomainModel> => emptyConnection();

/** A row of a merged page: which version and id, and for ENSv1 the domain's columns (`id` null for ENSv2). */
interface MergedRow {
  version: "ENSv1" | "ENSv2";
  merged_id: string;
  id: string | null;
  scope: string;
  sort_key: string | number;
}

/**
 * A page of domains of both versions for one key: each version's page (keyset on the same order key, then id), merged
 * and cut in the same statement, which also reads the ENSv1 rows (and, `withRegistration`, their registrations);
 * ENSv2 rows are loaded by id (one statement per level, only when a page has any).
 */
export function versionedDomainConnection(
  ctx: OmnigraphContext,
  scopes: VersionedScope,
  key: string,
  args: DomainListArgs,
  withRegistration = false,
): Promise<Connection<AnyDomainModel>> {
  if (scopes.v1 && !scopes.v2) return domainConnection(ctx, scopes.v1, key, args, withRegistration);
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
    `versioned-domains:${withRegistration ? "+registration:" : ""}${signature}`,
    () =>
      new Batcher<string, MergedRow[]>(async (keys) => {
        const merged = sql`select u.version, u.id, u.scope, u.sort_key, row_number() over (partition by u.scope order by u.sort_key ${dir}, u.id ${dir}) as merged_rn from (${parts(keys)}) u`;
        const cut = sql`select * from (${merged}) w where merged_rn <= ${size + 1}`;
        const rows = await ctx.query<MergedRow>(
          scopes.v1
            ? sql`select m.version, m.id as merged_id, m.scope, m.sort_key, ${DOMAIN_COLUMNS}${withRegistration ? sql`, ${REGISTRATION_COLUMNS}` : sql``} from (${cut}) m left join domain d on m.version = 'ENSv1' and d.id = m.id${withRegistration ? sql` ${registrationJoins(sql.raw("d.id"))}` : sql``} order by m.scope, m.merged_rn`
            : sql`select m.version, m.id as merged_id, m.scope, m.sort_key from (${cut}) m order by m.scope, m.merged_rn`,
        );
        const byKey = new Map<string, MergedRow[]>();
        let current: MergedRow[] | undefined;
        let currentKey: string | undefined;
        for (const row of rows) {
          if (row.version === "ENSv1" && row.id != null && withRegistration)
            carryRegistration(row as unknown as DomainRow);
          if (row.scope !== currentKey) {
            currentKey = row.scope;
            current = byKey.get(currentKey);
            if (!current) byKey.set(currentKey, (current = []));
          }
          current!.push(row);
        }
        return byKey;
      }, []),
  );
  const connection = (loaded: { row: MergedRow; node: AnyDomainModel }[]) =>
    toConnection(
      loaded,
      args,
      (x) => encodeCursor(String(x.row.sort_key), x.row.merged_id),
      (x) => x.node,
      () => domainListCount(ctx, scopes, key, args),
    );
  return pages.load(key).then((rows) => {
    // ENSv1 rows came with the page (one that vanished between the two reads of the old two-statement form is
    // skipped, as it was); ENSv2 rows are loaded by id.
    if (!rows.some((row) => row.version === "ENSv2")) {
      const loaded: { row: MergedRow; node: AnyDomainModel }[] = [];
      for (const row of rows) if (row.id != null) loaded.push({ row, node: v1Domain(row as unknown as DomainRow) });
      return connection(loaded);
    }
    return Promise.all(
      rows.map(async (row): Promise<AnyDomainModel | null> => {
        if (row.version === "ENSv2") {
          const v2 = await loadV2Domain(ctx, row.merged_id);
          return v2 ? v2Domain(v2) : null;
        }
        return row.id != null ? v1Domain(row as unknown as DomainRow) : null;
      }),
    ).then((nodes) => connection(rows.flatMap((row, i) => (nodes[i] ? [{ row, node: nodes[i]! }] : []))));
  });
}
