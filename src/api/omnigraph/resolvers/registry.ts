import type { GraphQLResolveInfo } from "graphql";
import type { OmnigraphContext } from "../context";
import { emptyConnection, oneItemConnection, type PageArgs, pageOf } from "../cursor";
import { domainConnection } from "../domain-lists";
import { loadDomain } from "../domain-loader";
import { type DomainsFieldArgs, nameFilterArgs } from "../domain-sql";
import { asksNodesRegistration } from "../lookahead";
import { type RegistryModel, registryId, v1Domain } from "../model";
import { nodeOfNameInput } from "../names";

export const registryResolvers = {
  id: (r: RegistryModel) => registryId(r),
  contract: (r: RegistryModel) => r.contract,
  node: (r: RegistryModel) => r.node,
  canonical: () => true,
  permissions: () => null,
  domains: (r: RegistryModel, args: DomainsFieldArgs, ctx: OmnigraphContext, info: GraphQLResolveInfo) =>
    domainConnection(
      ctx,
      { kind: "children" },
      r.node,
      { ...pageOf(args), order: args.order, ...nameFilterArgs(args.where?.name, nodeOfNameInput) },
      asksNodesRegistration(info),
    ),
  parents: async (r: RegistryModel, args: PageArgs, ctx: OmnigraphContext) => {
    if (
      r.__typename !== "ENSv1VirtualRegistry" ||
      args.after != null ||
      args.before != null ||
      args.first === 0 ||
      args.last === 0
    ) {
      return emptyConnection();
    }
    const row = await loadDomain(ctx, r.node);
    if (!row) return emptyConnection();
    return oneItemConnection(v1Domain(row), row.id);
  },
};
