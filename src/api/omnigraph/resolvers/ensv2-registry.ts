import type { OmnigraphContext } from "../context";
import { emptyConnection, type PageArgs, pageOf } from "../cursor";
import { versionedDomainConnection } from "../domain-lists";
import { type DomainsFieldArgs, nameFilterArgs } from "../domain-sql";
import { loadV2Domain, loadV2Registry } from "../ensv2/loaders";
import { type V2RegistryModel, v2Domain, v2RegistryId } from "../ensv2/model";
import { nodeOfNameInput } from "../names";
import { pageInMemory } from "./ensv2-registration";
import { permissionsOf } from "./permissions";

/*
 * ENSv2Registry: a registry contract of the ENSv2 tree. Canonical when the index gives it a canonical name (reachable
 * from the root registry by canonical links, docs/ensv2.md); its parents are every domain linking it now.
 */

export const ensv2RegistryResolvers = {
  id: (r: V2RegistryModel) => v2RegistryId(r),
  contract: (r: V2RegistryModel) => r.contract,
  canonical: async (r: V2RegistryModel, _: unknown, ctx: OmnigraphContext) =>
    ((await loadV2Registry(ctx, v2RegistryId(r)))?.canonical_name ?? null) !== null,
  domains: (r: V2RegistryModel, args: DomainsFieldArgs, ctx: OmnigraphContext) =>
    versionedDomainConnection(ctx, { v2: { kind: "registry" } }, v2RegistryId(r), {
      ...pageOf(args),
      order: args.order,
      ...nameFilterArgs(args.where?.name, nodeOfNameInput),
    }),
  // The domains whose subregistry it is now, oldest link first (few: one per linking domain).
  parents: async (r: V2RegistryModel, args: PageArgs, ctx: OmnigraphContext) => {
    const row = await loadV2Registry(ctx, v2RegistryId(r));
    if (!row) return emptyConnection();
    const linked = await Promise.all(row.linked_by.map((id) => loadV2Domain(ctx, id)));
    return pageInMemory(
      linked.filter((d) => d !== null).map((d) => v2Domain(d!)),
      args,
      (d) => d.v2.id,
    );
  },
  permissions: (r: V2RegistryModel, _: unknown, ctx: OmnigraphContext) => permissionsOf(ctx, r.contract),
};
