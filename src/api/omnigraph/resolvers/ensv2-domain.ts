import type { Hex } from "viem";
import { encodeLabelhash } from "../../../lib/labels";
import type { OmnigraphContext } from "../context";
import { emptyConnection, type PageArgs, pageOf } from "../cursor";
import { versionedDomainConnection } from "../domain-lists";
import { type DomainsFieldArgs, nameFilterArgs } from "../domain-sql";
import { loadV2Domain, loadV2Registry } from "../ensv2/loaders";
import { nonZeroAddress, type V2DomainModel, v2Domain, v2Registry } from "../ensv2/model";
import type { V2DomainRow } from "../ensv2/sql";
import { domainEvents, ENSV2_DOMAIN_EVENTS, type EventsArgs } from "../events";
import { accountOf, rootChainIdOf } from "../model";
import { beautifyLabel, canonicalName, depthOf, nodeOfNameInput } from "../names";
import { loadV2Registration, v2RegistrationsOf } from "./ensv2-registration";
import { domainPermissions, type PermissionsWhere } from "./permissions";
import { forwardResolve } from "./resolution";

/*
 * ENSv2Domain: one label of one ENSv2 registry (docs/ensv2.md). Its parent is the domain its registry's canonical link
 * names; its subdomains are the domains of its subregistry; its name is canonical only while the registry is reachable.
 */

/** The canonical parent: the domain the registry's canonical link names (null for the root registry's names). */
export async function v2ParentOf(ctx: OmnigraphContext, row: V2DomainRow): Promise<V2DomainRow | null> {
  const registry = await loadV2Registry(ctx, row.registry_id);
  if (!registry?.canonical_domain_id) return null;
  return loadV2Domain(ctx, registry.canonical_domain_id);
}

/** The domain and its canonical ancestors, nearest first, bounded by the name's depth (cycles cannot repeat a row). */
async function v2Ancestors(ctx: OmnigraphContext, row: V2DomainRow): Promise<V2DomainRow[]> {
  const out: V2DomainRow[] = [];
  const seen = new Set<string>([row.id]);
  let current: V2DomainRow | null = row;
  const limit = row.name === null ? 0 : depthOf(row.name);
  while (current && out.length < limit) {
    current = await v2ParentOf(ctx, current);
    if (!current || seen.has(current.id)) break;
    seen.add(current.id);
    out.push(current);
  }
  return out;
}

const resolverOf = (row: V2DomainRow) => {
  const address = nonZeroAddress(row.resolver);
  return address ? { chainId: row.chain_id, address } : null;
};

export const ensv2DomainResolvers = {
  id: (d: V2DomainModel) => d.v2.id,
  label: (d: V2DomainModel) => {
    const interpreted = d.v2.label ?? encodeLabelhash(d.v2.labelhash as Hex);
    return { interpreted, beautified: beautifyLabel(interpreted), hash: d.v2.labelhash };
  },
  canonical: (d: V2DomainModel) => {
    const name = d.v2.name;
    if (name === null || d.v2.node === null) return null;
    return {
      depth: depthOf(name),
      name: canonicalName(name),
      node: d.v2.node,
      path: async (_: unknown, ctx: OmnigraphContext) =>
        [...(await v2Ancestors(ctx, d.v2)).reverse().map(v2Domain), d] as V2DomainModel[],
    };
  },
  owner: (d: V2DomainModel) => accountOf(d.v2.owner),
  parent: async (d: V2DomainModel, _: unknown, ctx: OmnigraphContext) => {
    const parent = await v2ParentOf(ctx, d.v2);
    return parent ? v2Domain(parent) : null;
  },
  registry: (d: V2DomainModel) => v2Registry(d.v2.chain_id, d.v2.registry),
  subregistry: (d: V2DomainModel) => {
    const address = nonZeroAddress(d.v2.subregistry);
    return address ? v2Registry(d.v2.chain_id, address) : null;
  },
  registration: (d: V2DomainModel, _: unknown, ctx: OmnigraphContext) =>
    d.v2.latest_registration_id ? loadV2Registration(ctx, d.v2.latest_registration_id) : null,
  registrations: (d: V2DomainModel, args: PageArgs, ctx: OmnigraphContext) => v2RegistrationsOf(ctx, d.v2.id, args),
  resolver: (d: V2DomainModel, _: unknown, ctx: OmnigraphContext) => ({
    assigned: resolverOf(d.v2),
    // ENSIP-10 over the ENSv2 tree: the nearest of the name and its canonical ancestors with a resolver.
    effective: async () => {
      const own = resolverOf(d.v2);
      if (own || d.v2.name === null) return own;
      for (const ancestor of await v2Ancestors(ctx, d.v2)) {
        const found = resolverOf(ancestor);
        if (found) return found;
      }
      return null;
    },
  }),
  resolve: (d: V2DomainModel, args: { accelerate: boolean }) => forwardResolve(d.v2.name, args.accelerate),
  subdomains: (d: V2DomainModel, args: DomainsFieldArgs, ctx: OmnigraphContext) => {
    const sub = nonZeroAddress(d.v2.subregistry);
    if (!sub) return emptyConnection();
    return versionedDomainConnection(ctx, { v2: { kind: "registry" } }, `${d.v2.chain_id}-${sub}`, {
      ...pageOf(args),
      order: args.order,
      ...nameFilterArgs(args.where?.name, nodeOfNameInput),
    });
  },
  // The events about the name as its registry (and the registrar) emitted them, oldest first.
  events: (d: V2DomainModel, args: EventsArgs, ctx: OmnigraphContext) =>
    domainEvents(ctx, d.v2.id, args, rootChainIdOf(ctx.deps.namespace), ENSV2_DOMAIN_EVENTS),
  permissions: (d: V2DomainModel, args: PageArgs & { where?: PermissionsWhere | null }, ctx: OmnigraphContext) =>
    domainPermissions(ctx, d.v2, args),
  tokenId: (d: V2DomainModel) => BigInt(d.v2.token_id),
};
