import { type SQL, sql } from "drizzle-orm";

/*
 * The names pointing at an account (the indexer's name_reference table, src/plugins/shared/name-references.ts), read
 * by the Omnigraph's Account.nameReferences and by GET /api/resolve/name-references/:address. A page is one range of
 * the (address, id) or (address, coin type, id) index per account, however many names the account has.
 */

export interface NameReferenceRow {
  /** The account the page is for. */
  scope: string;
  id: string;
  coin_type: string;
  version: "ENSv1" | "ENSv2";
  domain_id: string;
  chain_id: number;
  resolver: string;
}

export interface NameReferenceFilter {
  /** Only records of this coin type; every coin type when null. */
  coinType: bigint | null;
}

export interface NameReferenceBounds {
  /** Rows with ids strictly after / before these, in id order. */
  after?: string | null;
  before?: string | null;
  size: number;
  backward: boolean;
}

/**
 * Only names the graph has: protocol-acceleration indexes every chain's registry, while a chain's domains are in the
 * graph only when its plugin runs (a Lineanames name without the lineanames plugin has no domain row). A primary-key
 * probe per row read.
 */
const IN_GRAPH = sql.raw(
  "case when r.version = 'ENSv2' then exists (select 1 from ensv2_domain d where d.id = r.domain_id) else exists (select 1 from domain d where d.id = r.domain_id) end",
);

const conditions = (filter: NameReferenceFilter): SQL[] => [
  IN_GRAPH,
  ...(filter.coinType === null ? [] : [sql`r.coin_type = ${filter.coinType.toString()}::numeric`]),
];

const lowercased = (items: string[]) =>
  sql.join(
    items.map((v) => sql`${v.toLowerCase()}`),
    sql`, `,
  );

/** Each account's page, one row past `size`, in the page's direction (a lateral index range per account). */
export function nameReferencePageQuery(
  accounts: string[],
  filter: NameReferenceFilter,
  bounds: NameReferenceBounds,
): SQL {
  const conds = [sql`r.address = k.scope`, ...conditions(filter)];
  if (bounds.after != null) conds.push(sql`r.id > ${bounds.after}`);
  if (bounds.before != null) conds.push(sql`r.id < ${bounds.before}`);
  const dir = sql.raw(bounds.backward ? "desc" : "asc");
  return sql`select k.scope, p.* from unnest(array[${lowercased(accounts)}]::text[]) as k(scope) cross join lateral (select r.id, r.coin_type::text as coin_type, r.version, r.domain_id, r.chain_id, r.resolver from name_reference r where ${sql.join(conds, sql` and `)} order by r.id ${dir} limit ${bounds.size + 1}) p order by k.scope, p.id ${dir}`;
}

/**
 * `scope, count` for each account, reading at most `cap + 1` of its references (a lateral index range per account): a
 * count above `cap` means "more than `cap`", so one account with millions of names cannot make the statement read them.
 */
export function nameReferenceCountQuery(accounts: string[], filter: NameReferenceFilter, cap: number): SQL {
  const conds = [sql`r.address = k.scope`, ...conditions(filter)];
  return sql`select k.scope, c.count from unnest(array[${lowercased(accounts)}]::text[]) as k(scope) cross join lateral (select count(*)::int as count from (select 1 from name_reference r where ${sql.join(conds, sql` and `)} limit ${cap + 1}) x) c`;
}

/** The names of a page's domains, ENSv1 and ENSv2, by the rows' domain ids (a primary-key read per row). */
export function nameReferenceNamesQuery(rows: Pick<NameReferenceRow, "version" | "domain_id">[]): SQL {
  const ids = (version: string) => rows.filter((r) => r.version === version).map((r) => r.domain_id);
  const v1 = ids("ENSv1");
  const v2 = ids("ENSv2");
  const none = sql.raw("select null::text as id, null::text as name where false");
  return sql`${v1.length ? sql`select id, name from domain where id in (${lowercased(v1)})` : none} union all ${v2.length ? sql`select id, name from ensv2_domain where id in (${lowercased(v2)})` : none}`;
}
