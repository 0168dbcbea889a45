import { type SQL, sql } from "drizzle-orm";
import { type DomainListArgs, type DomainTable, escapeLike, nameKey } from "../domain-sql";
import { list } from "../keyset";

/*
 * The ENSv2 side of the Omnigraph's domain lists, over the ensv2 plugin's `ensv2_domain` (docs/ensv2.md). Paged
 * like ENSv1's `domain` (domain-sql.ts), so a list of both versions is one merged statement.
 */

export interface V2DomainRow {
  id: string;
  chain_id: number;
  registry_id: string;
  registry: string;
  storage_id: string;
  token_id: string;
  resource: string | null;
  labelhash: string;
  label: string | null;
  name: string | null;
  node: string | null;
  subregistry: string | null;
  owner: string | null;
  expiry: string;
  resolver: string | null;
  status: "registered" | "reserved" | "unregistered";
  latest_registration_id: string | null;
  created_at: string;
}

/** `V2DomainRow`'s fields: the column, as read (casts), and the field it is read into. */
const V2_DOMAIN_FIELDS: readonly (readonly [expression: string, field: keyof V2DomainRow])[] = [
  ["id", "id"],
  ["chain_id", "chain_id"],
  ["registry_id", "registry_id"],
  ["registry", "registry"],
  ["storage_id", "storage_id"],
  ["token_id", "token_id"],
  ["resource", "resource"],
  ["labelhash", "labelhash"],
  ["label", "label"],
  ["name", "name"],
  ["node", "node"],
  ["subregistry", "subregistry"],
  ["owner", "owner"],
  ["expiry::text", "expiry"],
  ["resolver", "resolver"],
  ["status", "status"],
  ["latest_registration_id", "latest_registration_id"],
  ["created_at::text", "created_at"],
];

export const V2_DOMAIN_COLUMNS = sql.raw(
  V2_DOMAIN_FIELDS.map(([e, f]) => (e === f ? `d.${e}` : `d.${e} as ${f}`)).join(", "),
);

/** The same columns of `alias`, each named `v2_<field>`, to ride along another table's row (`v2DomainOfPrefixed`). */
export const v2DomainColumnsAs = (alias: string) =>
  sql.raw(V2_DOMAIN_FIELDS.map(([e, f]) => `${alias}.${e} as v2_${f}`).join(", "));

/** The ENSv2 domain carried by a row as `v2DomainColumnsAs`' columns, or null when it carries none. */
export function v2DomainOfPrefixed(row: Record<string, unknown>): V2DomainRow | null {
  if (row.v2_id == null) return null;
  const out: Record<string, unknown> = {};
  for (const [, f] of V2_DOMAIN_FIELDS) out[f] = row[`v2_${f}`];
  return out as unknown as V2DomainRow;
}

/** Which ENSv2 domains a list holds: a registry's (keys: registry ids), an owner's (addresses), or all (""). */
export type V2DomainScope = { kind: "registry" } | { kind: "owner" } | { kind: "all" };

const DEPTH = sql.raw(
  "(case when coalesce(d.name, '') = '' then 0 else length(d.name) - length(replace(d.name, '.', '')) + 1 end)::bigint",
);

export const V2_DOMAINS: DomainTable<V2DomainScope> = {
  from: sql.raw("ensv2_domain d"),
  columns: V2_DOMAIN_COLUMNS,
  orderKey(by, named) {
    switch (by) {
      case "NAME":
        return { expr: nameKey(named), kind: "text" };
      case "DEPTH":
        return { expr: DEPTH, kind: "number" };
      // The current registration's (or reservation's) block time and the name's expiry, kept on the row by the
      // indexer (src/lib/registration-order.ts); none without one.
      case "REGISTRATION_TIMESTAMP":
        return { expr: sql.raw("d.registration_start_key"), kind: "number" };
      case "REGISTRATION_EXPIRY":
        return { expr: sql.raw("d.registration_expiry_key"), kind: "number" };
    }
  },
  scopeOf(scope, keys) {
    switch (scope.kind) {
      case "registry":
        return { expr: sql.raw("d.registry_id"), where: sql`d.registry_id in (${list(keys)})` };
      case "owner":
        return { expr: sql.raw("d.owner"), where: sql`d.owner in (${list(keys)})` };
      case "all":
        return { expr: sql.raw("''"), where: sql.raw("true") };
    }
  },
  filters(scope, args: DomainListArgs) {
    const out: SQL[] = [];
    if (args.nodes) out.push(args.nodes.length === 0 ? sql.raw("false") : sql`d.node in (${list(args.nodes)})`);
    if (args.startsWith !== undefined) {
      const pattern = `${escapeLike(args.startsWith)}%`;
      out.push(scope.kind === "registry" ? sql`d.label like ${pattern}` : sql`d.name like ${pattern}`);
    }
    if (args.canonical === true) out.push(sql.raw("d.name is not null"));
    if (args.canonical === false) out.push(sql.raw("d.name is null"));
    return out;
  },
};

export const v2DomainsByIdQuery = (ids: string[]) =>
  sql`select ${V2_DOMAIN_COLUMNS} from ensv2_domain d where d.id in (${list(ids)})`;

/**
 * Which of a node's ENSv2 rows answers for its canonical name: a registered one first (an unregistered label keeps
 * its row and its name), then the latest updated.
 */
export const V2_BY_NODE_ORDER = sql.raw("(d.status = 'registered') desc, d.updated_at desc");

/** The ENSv2 domain of the node `node` (an expression of the statement it joins) as `v2_*` columns (alias `v2d`). */
export const v2DomainByNodeJoin = (node: SQL) =>
  sql`left join lateral (select ${v2DomainColumnsAs("d")} from ensv2_domain d where d.node = ${node} order by ${V2_BY_NODE_ORDER} limit 1) v2d on true`;

export interface V2RegistryRow {
  id: string;
  chain_id: number;
  address: string;
  is_root: boolean;
  linked_by: string[];
  canonical_domain_id: string | null;
  canonical_name: string | null;
}

const V2_REGISTRY_COLUMNS = sql.raw(
  "r.id, r.chain_id, r.address, r.is_root, r.linked_by, r.canonical_domain_id, r.canonical_name",
);

export const v2RegistriesByIdQuery = (ids: string[]) =>
  sql`select ${V2_REGISTRY_COLUMNS} from ensv2_registry r where r.id in (${list(ids)})`;

export const v2RootRegistryQuery = () =>
  sql`select ${V2_REGISTRY_COLUMNS} from ensv2_registry r where r.is_root order by r.created_at limit 1`;
