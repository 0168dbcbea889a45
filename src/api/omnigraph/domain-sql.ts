import { type SQL, sql } from "drizzle-orm";
import { GraphQLError } from "graphql";
import { v2IdFromInput } from "../../lib/ensv2-ids";
import { decodeCursor, type PageArgs, pageWindow, type SortValue } from "./cursor";
import { list } from "./keyset";

/*
 * The ENSv1 Domain lists of the Omnigraph over the subgraph's `domain` table: one statement per list field per level
 * of the answer, whatever the number of parents (a window per parent), plus one for `totalCount` when asked.
 */

export interface DomainRow {
  id: string;
  name: string | null;
  label_name: string | null;
  labelhash: string | null;
  parent_id: string | null;
  owner_id: string;
  registrant_id: string | null;
  wrapped_owner_id: string | null;
  resolver_id: string | null;
  created_at: string;
  /** The registry plugins' expiry (3DNS sets it on the domain; registrar names keep theirs on `registration`). */
  expiry_date?: string | null;
  /** A 3DNS registration's event id (the 3DNS plugin keeps it on the domain). */
  registration_event_id?: string | null;
}

export interface ListedDomainRow extends DomainRow {
  scope: string;
  sort_key: string | number;
}

export const DOMAIN_COLUMNS = sql.raw(
  "d.id, d.name, d.label_name, d.labelhash, d.parent_id, d.owner_id, d.registrant_id, d.wrapped_owner_id, d.resolver_id, d.created_at, d.expiry_date, d.registration_event_id",
);

/** Which domains a list holds, for each of several parents (keys) at once. */
export type DomainScope =
  | { kind: "children" } // keys: parent domain ids
  | { kind: "owner" } // keys: account addresses (the effective owner)
  | { kind: "all" }; // one key, ""

export type NameFilter = { eq?: string | null; in?: string[] | null; starts_with?: string | null };

export interface DomainListArgs extends PageArgs {
  order?: {
    by: "NAME" | "DEPTH" | "REGISTRATION_TIMESTAMP" | "REGISTRATION_EXPIRY";
    dir?: "ASC" | "DESC" | null;
  } | null;
  /** Nodes the list is limited to (a name filter's `eq`/`in`, already hashed). */
  nodes?: string[];
  /** Text the name (or, for children, the label) starts with. */
  startsWith?: string;
  /** Only domains with a name (true) or without (false). */
  canonical?: boolean | null;
}

/** A domain list field's GraphQL arguments: paging, order, and a `where` with a name filter (and the field's own). */
export type DomainsFieldArgs<Where = unknown> = PageArgs & {
  order?: DomainListArgs["order"];
  where?: ({ name?: NameFilter | null } & Where) | null;
};

/** The domain's effective owner: the NameWrapper's, else the registrar's, else the registry's (as the peer's). */
export const EFFECTIVE_OWNER = sql.raw("coalesce(d.wrapped_owner_id, d.registrant_id, d.owner_id)");

/**
 * The NAME key: a domain without a name sorts as "". In a list of named domains only, the key is the column itself,
 * the same values, which the name index can read in order (a prefix search stops at its page's end instead of
 * sorting every match).
 */
export const nameKey = (named: boolean) => sql.raw(named ? "d.name" : "coalesce(d.name, '')");

export interface OrderKey {
  expr: SQL;
  kind: "text" | "number";
}

/**
 * The registration keys are columns the indexer keeps on the row (src/lib/registration-order.ts), so a parent's
 * children by either come from the `(parent_id, key, id)` index a page at a time, however many the parent has.
 */
function orderKey(by: NonNullable<DomainListArgs["order"]>["by"], named: boolean): OrderKey {
  switch (by) {
    case "NAME":
      return { expr: nameKey(named), kind: "text" };
    case "DEPTH":
      return {
        expr: sql.raw(
          "(case when coalesce(d.name, '') = '' then 0 else length(d.name) - length(replace(d.name, '.', '')) + 1 end)::bigint",
        ),
        kind: "number",
      };
    case "REGISTRATION_TIMESTAMP":
      return { expr: sql.raw("d.registration_start_key"), kind: "number" };
    case "REGISTRATION_EXPIRY":
      return { expr: sql.raw("d.registration_expiry_key"), kind: "number" };
  }
}

function scopeOf(scope: DomainScope, keys: string[]): { expr: SQL; where: SQL } {
  switch (scope.kind) {
    case "children":
      return { expr: sql.raw("d.parent_id"), where: sql`d.parent_id in (${list(keys)})` };
    case "owner":
      // The OR lets each of the three indexed columns be searched; the coalesce keeps only the effective owner.
      return {
        expr: EFFECTIVE_OWNER,
        where: sql`(d.owner_id in (${list(keys)}) or d.registrant_id in (${list(keys)}) or d.wrapped_owner_id in (${list(keys)})) and ${EFFECTIVE_OWNER} in (${list(keys)})`,
      };
    case "all":
      return { expr: sql.raw("''"), where: sql.raw("true") };
  }
}

export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function filters(scope: DomainScope, args: DomainListArgs): SQL[] {
  const out: SQL[] = [sql.raw("d.id <> '0x0000000000000000000000000000000000000000000000000000000000000000'")];
  if (args.nodes) out.push(args.nodes.length === 0 ? sql.raw("false") : sql`d.id in (${list(args.nodes)})`);
  if (args.startsWith !== undefined) {
    const pattern = `${escapeLike(args.startsWith)}%`;
    out.push(scope.kind === "children" ? sql`split_part(d.name, '.', 1) like ${pattern}` : sql`d.name like ${pattern}`);
  }
  if (args.canonical === true) out.push(sql.raw("d.name is not null"));
  if (args.canonical === false) out.push(sql.raw("d.name is null"));
  return out;
}

/**
 * The parts of a domain table a page of it needs: ENSv1's `domain` (here) and ENSv2's `ensv2_domain` (ensv2/sql.ts)
 * page the same way (keyset on the order key then id), so their pages can be merged into one list.
 */
export interface DomainTable<S> {
  /** `<table> d` */
  from: SQL;
  columns: SQL;
  /** `named`: the list holds only domains with a name. */
  orderKey(by: NonNullable<DomainListArgs["order"]>["by"], named: boolean): OrderKey;
  scopeOf(scope: S, keys: string[]): { expr: SQL; where: SQL };
  filters(scope: S, args: DomainListArgs): SQL[];
}

export const V1_DOMAINS: DomainTable<DomainScope> = {
  from: sql.raw("domain d"),
  columns: DOMAIN_COLUMNS,
  orderKey,
  scopeOf,
  filters,
};

/** One page per key (a parent, an owner), each fetched one past its size; rows in each page's own direction. */
export function domainPageQuery(
  scope: DomainScope,
  keys: string[],
  args: DomainListArgs,
): { query: SQL; keyKind: "text" | "number" } {
  return tablePageQuery(V1_DOMAINS, scope, keys, args);
}

/** A domain list's cursor; an ENSv2 id in it written as earlier builds wrote it (hex) is read as today's. */
function decodeDomainCursor(cursor: string, keyKind: "text" | "number"): [SortValue, string] {
  const [value, id] = decodeCursor(cursor, keyKind);
  return [value, v2IdFromInput(id)];
}

export function tablePageQuery<S>(
  table: DomainTable<S>,
  scope: S,
  keys: string[],
  args: DomainListArgs,
  columns: SQL = table.columns,
): { query: SQL; keyKind: "text" | "number" } {
  const { size, backward } = pageWindow(args);
  const where = [table.scopeOf(scope, keys).where, ...table.filters(scope, args)];
  const key = table.orderKey(args.order?.by ?? "NAME", args.canonical === true);
  const descending = (args.order?.dir === "DESC") !== backward;
  const dir = sql.raw(descending ? "desc" : "asc");
  const cursor = backward ? args.before : args.after;
  const other = backward ? args.after : args.before;
  if (cursor != null) {
    const [value, id] = decodeDomainCursor(cursor, key.kind);
    const bound = key.kind === "number" ? sql`${String(value)}::numeric` : sql`${String(value)}`;
    where.push(
      descending ? sql`(${key.expr}, d.id) < (${bound}, ${id})` : sql`(${key.expr}, d.id) > (${bound}, ${id})`,
    );
  }
  if (other != null) {
    const [value, id] = decodeDomainCursor(other, key.kind);
    const bound = key.kind === "number" ? sql`${String(value)}::numeric` : sql`${String(value)}`;
    where.push(
      descending ? sql`(${key.expr}, d.id) > (${bound}, ${id})` : sql`(${key.expr}, d.id) < (${bound}, ${id})`,
    );
  }
  const scopeExpr = table.scopeOf(scope, keys).expr;
  const whereSql = sql.join(where, sql` and `);
  if (keys.length === 1) {
    return {
      query: sql`select ${columns}, ${keys[0]}::text as scope, ${key.expr} as sort_key from ${table.from} where ${whereSql} order by ${key.expr} ${dir}, d.id ${dir} limit ${size + 1}`,
      keyKind: key.kind,
    };
  }
  return {
    query: sql`select * from (select ${columns}, ${scopeExpr} as scope, ${key.expr} as sort_key, row_number() over (partition by ${scopeExpr} order by ${key.expr} ${dir}, d.id ${dir}) as rn from ${table.from} where ${whereSql}) x where rn <= ${size + 1} order by scope, rn`,
    keyKind: key.kind,
  };
}

/** A list without a name, prefix or canonical filter: all of its scope's rows, whose number the indexer keeps. */
export const isUnfiltered = (args: DomainListArgs): boolean =>
  args.nodes === undefined && args.startsWith === undefined && args.canonical == null;

/**
 * Each key's count of a filtered list, reading at most `cap + 1` matching rows per key: a count above `cap` means
 * "more than `cap`" (the caller refuses it), so no filter makes the statement read a whole large list.
 */
export function cappedCountQuery<S>(
  table: DomainTable<S>,
  scope: S,
  keys: string[],
  args: DomainListArgs,
  cap: number,
): SQL {
  const perKey = keys.map((key) => {
    const where = sql.join([table.scopeOf(scope, [key]).where, ...table.filters(scope, args)], sql` and `);
    return sql`(select ${key}::text as scope, count(*)::int as count from (select 1 from ${table.from} where ${where} limit ${cap + 1}) x)`;
  });
  return sql.join(perKey, sql` union all `);
}

export function domainsByIdQuery(ids: string[]): SQL {
  return sql`select ${DOMAIN_COLUMNS} from domain d where d.id in (${list(ids)})`;
}

/** A name filter's nodes or prefix; `in` is bounded so one argument cannot ask for an unbounded statement. */
export function nameFilterArgs(
  filter: NameFilter | null | undefined,
  nodeOf: (name: string) => string,
): Pick<DomainListArgs, "nodes" | "startsWith"> {
  if (!filter) return {};
  if (filter.eq != null) return { nodes: [nodeOf(filter.eq)] };
  if (filter.in != null) {
    if (filter.in.length > 1000) throw new GraphQLError("`in` takes at most 1000 names");
    return { nodes: filter.in.map(nodeOf) };
  }
  if (filter.starts_with != null) return { startsWith: filter.starts_with };
  return {};
}
