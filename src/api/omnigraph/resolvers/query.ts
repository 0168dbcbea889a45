import { sql } from "drizzle-orm";
import { GraphQLError, type GraphQLResolveInfo } from "graphql";
import type { Address } from "viem";
import { isV2DomainId, v2IdFromInput } from "../../../lib/ensv2-ids";
import type { OmnigraphContext } from "../context";
import { type PageArgs, pageOf } from "../cursor";
import { versionedDomainConnection } from "../domain-lists";
import { loadDomain } from "../domain-loader";
import { type DomainListArgs, type NameFilter, nameFilterArgs } from "../domain-sql";
import { loadV2Domain, loadV2Registry, loadV2Root } from "../ensv2/loaders";
import { type V2RegistryModel, v2Domain, v2RegistryOfRow } from "../ensv2/model";
import { asksNodesRegistration, asksRegistration } from "../lookahead";
import {
  type AccountIdModel,
  concreteRegistries,
  parseAccountId,
  type RegistryModel,
  registryId,
  rootRegistry,
  v1Domain,
} from "../model";
import { nodeOfNameInput } from "../names";
import { domainByName, scopesOf } from "./domain";
import { permissionsOf } from "./permissions";
import { unindexedDomainByName } from "./unindexed-domain";

type ById<T extends string> = { [K in T]?: string | AccountIdModel | null };

async function findRegistry(
  ctx: OmnigraphContext,
  by: ById<"id" | "contract">,
): Promise<RegistryModel | V2RegistryModel | null> {
  const v1 = findV1Registry(ctx, by);
  if (v1) return v1;
  // An ENSv2 registry, by `<chainId>-<address>` or by contract.
  const contract = by.contract ? (by.contract as AccountIdModel) : parseAccountId(String(by.id ?? ""));
  if (!contract || (by.id && parseAccountId(String(by.id))?.rest.length)) return null;
  const row = await loadV2Registry(ctx, `${contract.chainId}-${contract.address.toLowerCase()}`);
  return row ? v2RegistryOfRow(row) : null;
}

function findV1Registry(ctx: OmnigraphContext, by: ById<"id" | "contract">): RegistryModel | null {
  const registries = concreteRegistries(ctx.deps.namespace);
  const same = (a: AccountIdModel, b: AccountIdModel) =>
    a.chainId === b.chainId && a.address === b.address.toLowerCase();
  if (by.contract) return registries.find((r) => same(r.contract, by.contract as AccountIdModel)) ?? null;
  const parsed = parseAccountId(String(by.id ?? ""));
  if (!parsed) return null;
  const concrete = registries.find((r) => same(r.contract, parsed));
  if (!concrete) return null;
  if (parsed.rest.length === 0) return concrete;
  const node = parsed.rest.join("-");
  if (!/^0x[0-9a-f]{64}$/.test(node)) return null;
  const virtual: RegistryModel = {
    __typename: "ENSv1VirtualRegistry",
    contract: concrete.contract,
    node: node as `0x${string}`,
  };
  return registryId(virtual) === by.id ? virtual : null;
}

export const queryResolvers = {
  // The ENSv2 root registry when the index has one (the peer's rule), else ENSv1's.
  root: async (_: unknown, __: unknown, ctx: OmnigraphContext) => {
    const v2 = await loadV2Root(ctx);
    return v2 ? v2RegistryOfRow(v2) : rootRegistry(ctx.deps.namespace);
  },
  domain: async (
    _: unknown,
    args: { by: { id?: string | null; name?: string | null } },
    ctx: OmnigraphContext,
    info: GraphQLResolveInfo,
  ) => {
    if (args.by.id != null) {
      const id = args.by.id.toLowerCase();
      // An ENSv2 id as the peer writes it (decimal storage id), or as our earlier builds did (`0x` + 64 hex).
      if (isV2DomainId(id)) {
        const v2 = await loadV2Domain(ctx, v2IdFromInput(id));
        return v2 ? v2Domain(v2) : null;
      }
      const row = await loadDomain(ctx, id, asksRegistration(info));
      return row ? v1Domain(row) : null;
    }
    const name = args.by.name ?? "";
    // Not in the index: the UnindexedDomain resolution reaches through a wildcard resolver, else null.
    return (await domainByName(ctx, nodeOfNameInput(name), asksRegistration(info))) ?? unindexedDomainByName(ctx, name);
  },
  domains: (
    _: unknown,
    args: PageArgs & { order?: DomainListArgs["order"]; where: { name: NameFilter; version?: string | null } },
    ctx: OmnigraphContext,
    info: GraphQLResolveInfo,
  ) => {
    const filter = nameFilterArgs(args.where.name, nodeOfNameInput);
    if (filter.nodes === undefined && filter.startsWith === undefined)
      throw new GraphQLError("`where.name` needs one of `eq`, `in` or `starts_with`");
    // Canonical domains only: the ones with a name.
    return versionedDomainConnection(
      ctx,
      scopesOf(args.where.version, { kind: "all" }, { kind: "all" }),
      "",
      { ...pageOf(args), order: args.order, canonical: true, ...filter },
      asksNodesRegistration(info),
    );
  },
  account: (_: unknown, args: { by: { id?: string | null; address?: string | null } }) => ({
    address: (args.by.address ?? args.by.id) as Address,
  }),
  registry: (_: unknown, args: { by: ById<"id" | "contract"> }, ctx: OmnigraphContext) => findRegistry(ctx, args.by),
  resolver: async (
    _: unknown,
    args: { by: { id?: string | null; contract?: AccountIdModel | null } },
    ctx: OmnigraphContext,
  ) => {
    const target = args.by.contract ?? (args.by.id ? parseAccountId(args.by.id) : undefined);
    if (!target || (args.by.id && parseAccountId(args.by.id)?.rest.length)) return null;
    const address = target.address.toLowerCase();
    const [known] = await ctx.query(sql`select 1 from resolver where address = ${address} limit 1`);
    return known ? { chainId: target.chainId, address } : null;
  },
  permissions: (
    _: unknown,
    args: { by: { id?: string | null; contract?: AccountIdModel | null } },
    ctx: OmnigraphContext,
  ) => {
    const contract = args.by.contract ?? (args.by.id ? parseAccountId(args.by.id) : undefined);
    if (!contract || (args.by.id && parseAccountId(args.by.id)?.rest.length)) return null;
    return permissionsOf(ctx, contract);
  },
  efp: () => null,
};
