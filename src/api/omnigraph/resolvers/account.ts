import type { OmnigraphContext } from "../context";
import { emptyConnection, type PageArgs } from "../cursor";
import { domainConnection } from "../domain-lists";
import { type DomainListArgs, type NameFilter, nameFilterArgs } from "../domain-sql";
import type { AccountModel } from "../model";
import { nodeOfNameInput } from "../names";
import { pageOf } from "./domain";
import { reverseResolve } from "./resolution";

type AccountDomainsArgs = PageArgs & {
  order?: DomainListArgs["order"];
  where?: { name?: NameFilter | null; version?: "ENSv1" | "ENSv2" | null; canonical?: boolean | null } | null;
};

export const accountResolvers = {
  id: (a: AccountModel) => a.address,
  address: (a: AccountModel) => a.address,
  domains: (a: AccountModel, args: AccountDomainsArgs, ctx: OmnigraphContext) => {
    // The index has no ENSv2 domains yet.
    if (args.where?.version === "ENSv2") return emptyConnection();
    return domainConnection(ctx, { kind: "owner" }, a.address, {
      ...pageOf(args),
      order: args.order,
      canonical: args.where?.canonical,
      ...nameFilterArgs(args.where?.name, nodeOfNameInput),
    });
  },
  resolve: (a: AccountModel, args: { accelerate: boolean }) => reverseResolve(a.address, args.accelerate),
  // Not indexed here (docs/api.md): the senders of transactions, EFP, ENSv2 permissions.
  events: () => emptyConnection(),
  nameReferences: () => emptyConnection(),
  permissions: () => emptyConnection(),
  registryPermissions: () => emptyConnection(),
  resolverPermissions: () => emptyConnection(),
  efp: () => null,
};
