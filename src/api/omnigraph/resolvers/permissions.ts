import { type SQL, sql } from "drizzle-orm";
import { GraphQLError } from "graphql";
import type { Address } from "viem";
import { resourceFromInput, resourceKey, v2IdFromInput } from "../../../lib/ensv2-ids";
import { Batcher } from "../batch";
import type { OmnigraphContext } from "../context";
import { type Connection, encodeCursor, type PageArgs, pageOf, pageWindow, toConnection } from "../cursor";
import { v2Registry } from "../ensv2/model";
import type { V2DomainRow } from "../ensv2/sql";
import { domainEvents, type EventsArgs, PERMISSIONS_EVENTS, PERMISSIONS_USER_EVENTS } from "../events";
import { idBounds, keyedConnection, list } from "../keyset";
import { type AccountIdModel, type AccountModel, accountOf, rootChainIdOf } from "../model";

/*
 * ENSv2 permissions (EnhancedAccessControl) from `ensv2_permission`: each account's role bitmap per resource of one
 * contract (a registry, a resolver, the registrar), as `roles(resource, account)` reads it. Entries whose roles were
 * all revoked (bitmap 0) are not listed. Lists are one statement per list field per level of the answer.
 */

interface PermissionRow {
  id: string;
  chain_id: number;
  contract: string;
  resource: string;
  account: string;
  roles: string;
  scope: string;
  sort_key: string;
}

/** The Permissions of one contract. */
export interface PermissionsModel {
  contract: AccountIdModel;
}

interface ResourceModel {
  contract: AccountIdModel;
  resource: string;
}

const PERMISSION_COLUMNS = sql.raw(
  "p.id, p.chain_id, p.contract, p.resource, p.account, p.roles::text as roles, p.id as sort_key",
);
const CONTRACT_ID = sql.raw("(p.chain_id::text || '-' || p.contract)");
/** One contract's entries, by the indexed (contract, resource) column first, then its chain. */
const ofContract = (c: AccountIdModel) => sql`p.contract = ${c.address.toLowerCase()} and p.chain_id = ${c.chainId}`;
const IS_RESOLVER = sql.raw("exists (select 1 from resolver s where s.address = p.contract)");
const IS_REGISTRY = sql.raw(
  "exists (select 1 from ensv2_registry g where g.id = p.chain_id::text || '-' || p.contract)",
);

/** A page per key of one kind of permission list; pages asked with the same arguments at one level share a statement. */
function permissionConnection<T>(
  ctx: OmnigraphContext,
  name: string,
  scopeExpr: SQL,
  extra: { key: string; where: SQL } | null,
  key: string,
  args: PageArgs,
  nodeOf: (row: PermissionRow) => T,
): Promise<Connection<T>> {
  const signature = `${name}:${extra?.key ?? ""}:${JSON.stringify(args)}`;
  const whereOf = (keys: string[]) => {
    const conds = [sql`${scopeExpr} in (${list(keys)})`, sql.raw("p.roles <> 0")];
    if (extra) conds.push(extra.where);
    return conds;
  };
  return keyedConnection<PermissionRow, T>(
    ctx,
    {
      pages: `permissions:${signature}`,
      counts: `permission-counts:${signature}`,
      pageQuery: (keys) => {
        const { size, backward } = pageWindow(args);
        const dir = sql.raw(backward ? "desc" : "asc");
        const conds = [...whereOf(keys), ...idBounds(args, sql.raw("p.id"), v2IdFromInput)];
        return sql`select * from (select ${PERMISSION_COLUMNS}, ${scopeExpr} as scope, row_number() over (partition by ${scopeExpr} order by p.id ${dir}) as rn from ensv2_permission p where ${sql.join(conds, sql` and `)}) x where rn <= ${size + 1} order by scope, rn`;
      },
      countQuery: (keys) =>
        sql`select ${scopeExpr} as scope, count(*)::int as count from ensv2_permission p where ${sql.join(whereOf(keys), sql` and `)} group by 1`,
      cursorOf: (r) => encodeCursor(r.sort_key, r.id),
      nodeOf,
    },
    key,
    args,
  );
}

const userOf = (r: PermissionRow) => ({
  id: r.id,
  contract: { chainId: r.chain_id, address: r.contract as Address },
  resource: BigInt(r.resource),
  roles: BigInt(r.roles),
  user: accountOf(r.account),
});

type PermissionsUserModel = ReturnType<typeof userOf>;

/** PermissionsUser's connection (its other fields are the model's own). */
export const permissionsUserResolvers = {
  // Every EACRolesChanged of this entry, oldest first.
  events: (u: PermissionsUserModel, args: EventsArgs, ctx: OmnigraphContext) =>
    domainEvents(ctx, u.id, args, rootChainIdOf(ctx.deps.namespace), PERMISSIONS_USER_EVENTS),
};

export type PermissionsWhere = { user?: { eq?: string | null; in?: string[] | null } | null };

/** The accounts with roles on one ENSv2 domain (its registry's resource for it), optionally only some users. */
export function domainPermissions(
  ctx: OmnigraphContext,
  row: V2DomainRow,
  args: PageArgs & { where?: PermissionsWhere | null },
) {
  const user = args.where?.user;
  const users = user?.eq != null ? [user.eq] : (user?.in ?? null);
  if (users && users.length > 1000) throw new GraphQLError("`user.in` takes at most 1000 addresses");
  const extra =
    users === null
      ? null
      : {
          key: users.join(","),
          where: users.length === 0 ? sql.raw("false") : sql`p.account in (${list(users.map((u) => u.toLowerCase()))})`,
        };
  return permissionConnection(ctx, "domain", sql.raw("p.domain_id"), extra, row.id, pageOf(args), userOf);
}

const contractKey = (c: AccountIdModel) => `${c.chainId}-${c.address.toLowerCase()}`;

/** Whether any account ever had roles on a contract: the contract has Permissions. One statement per level. */
export function permissionsOf(ctx: OmnigraphContext, contract: AccountIdModel): Promise<PermissionsModel | null> {
  return ctx
    .batcher(
      "permissions-exist",
      () =>
        new Batcher<string, boolean>(async (keys) => {
          const rows = await ctx.query<{ scope: string }>(
            sql`select distinct ${CONTRACT_ID} as scope from ensv2_permission p where p.contract in (${list(keys.map((k) => k.split("-")[1]!))}) and ${CONTRACT_ID} in (${list(keys)})`,
          );
          return new Map(rows.map((r) => [r.scope, true]));
        }, false),
    )
    .load(contractKey(contract))
    .then((known) =>
      known ? { contract: { chainId: contract.chainId, address: contract.address.toLowerCase() as Address } } : null,
    );
}

const RESOURCE_ZERO = resourceKey(0n);

export const permissionsResolvers = {
  id: (p: PermissionsModel) => contractKey(p.contract),
  contract: (p: PermissionsModel) => p.contract,
  root: (p: PermissionsModel): ResourceModel => ({ contract: p.contract, resource: RESOURCE_ZERO }),
  resources: async (p: PermissionsModel, args: PageArgs, ctx: OmnigraphContext) => {
    // One entry per resource: the page of the contract's entries grouped by resource, read as its first user's row.
    const { size, backward } = pageWindow(args);
    // Resources are decimal text: in the text order of their ids (`<chainId>-<contract>-<resource>`), as the peer's.
    const bounds = idBounds(args, sql.raw("p.resource"), resourceFromInput);
    const conds = [ofContract(p.contract), sql.raw("p.roles <> 0"), ...bounds];
    const where = sql.join(conds, sql` and `);
    const rows = await ctx.query<{ resource: string }>(
      sql`select distinct p.resource from ensv2_permission p where ${where} order by p.resource ${sql.raw(backward ? "desc" : "asc")} limit ${size + 1}`,
    );
    return toConnection(
      rows,
      args,
      (r) => encodeCursor(r.resource, r.resource),
      (r): ResourceModel => ({ contract: p.contract, resource: r.resource }),
      async () => {
        const [c] = await ctx.query<{ count: number }>(
          sql`select count(distinct p.resource)::int as count from ensv2_permission p where ${ofContract(p.contract)} and p.roles <> 0`,
        );
        return Number(c?.count ?? 0);
      },
    );
  },
  // Every EACRolesChanged of the contract, oldest first.
  events: (p: PermissionsModel, args: EventsArgs, ctx: OmnigraphContext) =>
    domainEvents(ctx, contractKey(p.contract), args, rootChainIdOf(ctx.deps.namespace), PERMISSIONS_EVENTS),
};

export const permissionsResourceResolvers = {
  id: (r: ResourceModel) => `${contractKey(r.contract)}-${r.resource}`,
  contract: (r: ResourceModel) => r.contract,
  permissions: (r: ResourceModel): PermissionsModel => ({ contract: r.contract }),
  resource: (r: ResourceModel) => BigInt(r.resource),
  users: (r: ResourceModel, args: PageArgs, ctx: OmnigraphContext) =>
    permissionConnection(
      ctx,
      "resource",
      sql.raw("(p.chain_id::text || '-' || p.contract || '-' || p.resource)"),
      null,
      `${contractKey(r.contract)}-${r.resource}`,
      args,
      userOf,
    ),
};

/** Account.permissions / registryPermissions / resolverPermissions. */
export const accountPermissionResolvers = {
  permissions: (
    a: AccountModel,
    args: PageArgs & { where?: { contract?: AccountIdModel | null } | null },
    ctx: OmnigraphContext,
  ) => {
    const c = args.where?.contract;
    const extra = c ? { key: contractKey(c), where: ofContract(c) } : null;
    return permissionConnection(
      ctx,
      "account",
      sql.raw("p.account"),
      extra,
      a.address.toLowerCase(),
      pageOf(args),
      userOf,
    );
  },
  registryPermissions: (a: AccountModel, args: PageArgs, ctx: OmnigraphContext) =>
    permissionConnection(
      ctx,
      "account-registry",
      sql.raw("p.account"),
      { key: "registry", where: IS_REGISTRY },
      a.address.toLowerCase(),
      args,
      (r) => ({ ...userOf(r), registry: v2Registry(r.chain_id, r.contract) }),
    ),
  resolverPermissions: (a: AccountModel, args: PageArgs, ctx: OmnigraphContext) =>
    permissionConnection(
      ctx,
      "account-resolver",
      sql.raw("p.account"),
      // The access-controlled contracts the index knows as resolvers (ENSv2's PermissionedResolver emits records).
      { key: "resolver", where: IS_RESOLVER },
      a.address.toLowerCase(),
      args,
      (r) => ({ ...userOf(r), resolver: { chainId: r.chain_id, address: r.contract } }),
    ),
};
