import type { GraphQLResolveInfo } from "graphql";
import type { OmnigraphContext } from "../context";
import { emptyConnection, type PageArgs, pageOf } from "../cursor";
import { versionedDomainConnection } from "../domain-lists";
import { type DomainsFieldArgs, nameFilterArgs } from "../domain-sql";
import { ACCOUNT_EVENTS, type EventsArgs, eventsConnection } from "../events";
import { asksNodesRegistration } from "../lookahead";
import { type AccountModel, rootChainIdOf } from "../model";
import { nodeOfNameInput } from "../names";
import { scopesOf } from "./domain";
import { accountNameReferences } from "./name-reference";
import { accountPermissionResolvers } from "./permissions";
import { reverseResolve } from "./resolution";

type AccountDomainsArgs = DomainsFieldArgs<{ version?: "ENSv1" | "ENSv2" | null; canonical?: boolean | null }>;

export const accountResolvers = {
  id: (a: AccountModel) => a.address,
  address: (a: AccountModel) => a.address,
  domains: (a: AccountModel, args: AccountDomainsArgs, ctx: OmnigraphContext, info: GraphQLResolveInfo) => {
    const scopes = scopesOf(args.where?.version, { kind: "owner" }, { kind: "owner" });
    return versionedDomainConnection(
      ctx,
      scopes,
      a.address.toLowerCase(),
      {
        ...pageOf(args),
        order: args.order,
        canonical: args.where?.canonical,
        ...nameFilterArgs(args.where?.name, nodeOfNameInput),
      },
      asksNodesRegistration(info),
    );
  },
  resolve: (a: AccountModel, args: { accelerate: boolean }, _: OmnigraphContext, info: GraphQLResolveInfo) =>
    reverseResolve(a.address, args.accelerate, info),
  ...accountPermissionResolvers,
  nameReferences: (
    a: AccountModel,
    args: PageArgs & { where?: { coinType?: bigint | null } | null },
    ctx: OmnigraphContext,
  ) => accountNameReferences(ctx, a.address, args),
  // The events of the transactions the account sent, on every chain (no smart-account attribution: docs/api.md).
  events: (a: AccountModel, args: EventsArgs, ctx: OmnigraphContext) =>
    eventsConnection(ctx, a.address.toLowerCase(), args, rootChainIdOf(ctx.deps.namespace), ACCOUNT_EVENTS),
  // EFP is not indexed here (docs/api.md).
  efp: () => null,
};
