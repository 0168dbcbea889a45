import type { GraphQLResolveInfo } from "graphql";
import type { Hex } from "viem";
import { encodeLabelhash } from "../../../lib/labels";
import { ROOT_NODE } from "../../../lib/names";
import type { OmnigraphContext } from "../context";
import { type Connection, emptyConnection, oneItemConnection, type PageArgs, pageOf } from "../cursor";
import { domainConnection } from "../domain-lists";
import { loadDomain, loadDomainsByNode } from "../domain-loader";
import type { VersionedScope } from "../domain-scope";
import { type DomainScope, type DomainsFieldArgs, nameFilterArgs } from "../domain-sql";
import { type AnyDomainModel, v2Domain } from "../ensv2/model";
import type { V2DomainScope } from "../ensv2/sql";
import { domainEvents, type EventsArgs } from "../events";
import { asksNodesRegistration } from "../lookahead";
import {
  accountOf,
  type DomainModel,
  registryOfDomain,
  resolverOfSubgraphId,
  rootChainIdOf,
  subregistryOfDomain,
  v1Domain,
} from "../model";
import {
  ancestorNodes,
  beautifyLabel,
  type CanonicalName,
  canonicalName,
  depthOf,
  interpretLabel,
  nodeOfNameInput,
} from "../names";
import { withRevealedLabels } from "../revealed-labels";
import { loadRegistration } from "./registration";
import { forwardResolve } from "./resolution";

export const domainResolvers = {
  id: (d: DomainModel) => d.row.id,
  node: (d: DomainModel) => d.row.id,
  label: (d: DomainModel, _: unknown, ctx: OmnigraphContext) => {
    const name = d.row.name;
    const dot = name == null ? -1 : name.indexOf(".");
    const first = name == null ? undefined : dot === -1 ? name : name.slice(0, dot);
    const hash = d.row.labelhash ?? ROOT_NODE;
    const labelOf = (interpreted: string) => ({ interpreted, beautified: beautifyLabel(interpreted), hash });
    const interpreted = first !== undefined && first !== "" ? interpretLabel(first) : encodeLabelhash(hash as Hex);
    // The root has no label to reveal.
    const healed = d.row.labelhash === null ? interpreted : withRevealedLabels(ctx, interpreted);
    return typeof healed === "string" ? labelOf(healed) : healed.then(labelOf);
  },
  canonical: (d: DomainModel, _: unknown, ctx: OmnigraphContext) => {
    if (d.row.name === null) return null;
    const healed = withRevealedLabels(ctx, d.row.name);
    return typeof healed === "string" ? new DomainCanonical(d, healed) : healed.then((n) => new DomainCanonical(d, n));
  },
  owner: (d: DomainModel) => accountOf(d.row.wrapped_owner_id ?? d.row.registrant_id ?? d.row.owner_id),
  rootRegistryOwner: (d: DomainModel) => accountOf(d.row.owner_id),
  parent: async (d: DomainModel, _: unknown, ctx: OmnigraphContext) => {
    if (!d.row.parent_id || d.row.parent_id === ROOT_NODE) return null;
    const row = await loadDomain(ctx, d.row.parent_id);
    return row ? v1Domain(row) : null;
  },
  registry: (d: DomainModel, _: unknown, ctx: OmnigraphContext) => registryOfDomain(d.row, ctx.deps.namespace),
  subregistry: (d: DomainModel, _: unknown, ctx: OmnigraphContext) => subregistryOfDomain(d.row, ctx.deps.namespace),
  registration: (d: DomainModel, _: unknown, ctx: OmnigraphContext) => loadRegistration(ctx, d.row),
  registrations: async (d: DomainModel, args: PageArgs, ctx: OmnigraphContext) => {
    const r = await loadRegistration(ctx, d.row);
    if (!r || args.after != null || args.before != null || args.first === 0 || args.last === 0) {
      return { ...emptyConnection(), totalCount: r ? 1 : 0 };
    }
    return oneItemConnection(r, r.id);
  },
  resolver: (d: DomainModel, _: unknown, ctx: OmnigraphContext) => {
    const rootChainId = rootChainIdOf(ctx.deps.namespace);
    return {
      assigned: resolverOfSubgraphId(d.row.resolver_id, rootChainId),
      // ENSIP-10: the nearest of the name and its ancestors with a resolver.
      effective: async () => {
        const own = resolverOfSubgraphId(d.row.resolver_id, rootChainId);
        if (own || d.row.name === null) return own;
        for (const node of ancestorNodes(d.row.name)) {
          const row = await loadDomain(ctx, node);
          const found = resolverOfSubgraphId(row?.resolver_id ?? null, rootChainId);
          if (found) return found;
        }
        return null;
      },
    };
  },
  // The name as the graph shows it (`canonical.name.interpreted`: revealed labels written out, an unnormalized stored
  // label as its labelhash), so a domain resolves under the name it reads as; the node is the stored name's either way.
  resolve: (d: DomainModel, args: { accelerate: boolean }, ctx: OmnigraphContext) => {
    if (d.row.name === null) return forwardResolve(null, args.accelerate);
    const resolveAs = (name: string) => forwardResolve(canonicalName(name).interpreted, args.accelerate);
    const healed = withRevealedLabels(ctx, d.row.name);
    return typeof healed === "string" ? resolveAs(healed) : healed.then(resolveAs);
  },
  subdomains: (d: DomainModel, args: DomainsFieldArgs, ctx: OmnigraphContext, info: GraphQLResolveInfo) =>
    domainConnection(
      ctx,
      { kind: "children" },
      d.row.id,
      { ...pageOf(args), order: args.order, ...nameFilterArgs(args.where?.name, nodeOfNameInput) },
      asksNodesRegistration(info),
    ),
  events: (d: DomainModel, args: EventsArgs, ctx: OmnigraphContext) =>
    domainEvents(ctx, d.row.id, args, rootChainIdOf(ctx.deps.namespace)),
  permissions: (): Connection<never> => emptyConnection(),
  tokenId: () => 0n,
};

/** A domain's `canonical`: each field worked out when a query reads it. */
class DomainCanonical {
  constructor(
    private readonly domain: DomainModel,
    private readonly fullName: string,
  ) {}

  get depth(): number {
    return depthOf(this.fullName);
  }

  get name(): CanonicalName {
    return canonicalName(this.fullName);
  }

  get node(): string {
    return this.domain.row.id;
  }

  /** From the top-level name down to this one. */
  async path(_: unknown, ctx: OmnigraphContext): Promise<DomainModel[]> {
    const nodes = ancestorNodes(this.fullName)
      .filter((n) => n !== ROOT_NODE)
      .reverse();
    const rows = await Promise.all(nodes.map((n) => loadDomain(ctx, n)));
    return [...rows.filter((r) => r !== null).map((r) => v1Domain(r!)), this.domain];
  }
}

/**
 * A name asked for by `domain(by: { name })`, when both versions index it: the ENSv2 domain while it is registered
 * there (a migrated or ENSv2-only name: forward resolution from the ENSv2 root finds it), else the ENSv1 domain (a
 * name reserved in ENSv2 still resolves through ENSv1, docs/ensv2.md), else the ENSv2 domain whatever its status.
 */
export async function domainByName(
  ctx: OmnigraphContext,
  node: string,
  withRegistration = false,
): Promise<AnyDomainModel | null> {
  const { v1, v2 } = await loadDomainsByNode(ctx, node, withRegistration);
  if (v2 && v2.status === "registered") return v2Domain(v2);
  if (v1) return v1Domain(v1);
  return v2 ? v2Domain(v2) : null;
}

/** The scopes of a list filtered by `version` (both when none). */
export function scopesOf(
  version: "ENSv1" | "ENSv2" | string | null | undefined,
  v1: DomainScope,
  v2: V2DomainScope,
): VersionedScope {
  if (version === "ENSv1") return { v1 };
  if (version === "ENSv2") return { v2 };
  return { v1, v2 };
}
