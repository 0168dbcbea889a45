import type { Hex } from "viem";
import { isEncodedLabelhash, labelhashOf } from "../../../lib/labels";
import { namehash } from "../../../lib/names";
import { ensv2SettingsOf } from "../../shared/resolution/ensv2";
import { ancestorsOf, routeName } from "../../shared/resolution/routing";
import type { OmnigraphContext } from "../context";
import { emptyConnection } from "../cursor";
import { loadDomainsByNode } from "../domain-loader";
import {
  type AnyDomainModel,
  nonZeroAddress,
  type V2DomainModel,
  type V2RegistryModel,
  v2Domain,
  v2Registry,
  v2RegistryId,
} from "../ensv2/model";
import type { V2DomainRow } from "../ensv2/sql";
import {
  type DomainModel,
  type RegistryModel,
  type ResolverModel,
  registryId,
  registryOfDomain,
  resolverOfSubgraphId,
  rootChainIdOf,
  v1Domain,
} from "../model";
import { beautifyLabel, canonicalName, depthOf } from "../names";
import { domainResolvers } from "./domain";
import { ensv2DomainResolvers } from "./ensv2-domain";
import { forwardResolve } from "./resolution";

/*
 * UnindexedDomain: a name the index holds no domain of, which resolution reaches anyway because the nearest ancestor
 * with a resolver has an ENSIP-10 extended one (an offchain/CCIP-Read resolver, a wildcard). The peer's rule
 * (ensnode's ensapi `makeUnindexedDomain`): found from the index's ancestors of the name, never listed anywhere, its
 * id `unindexed-<registry id>-<node>` where the registry is the one that holds that ancestor.
 */

export interface UnindexedDomainModel {
  __typename: "UnindexedDomain";
  /** The name asked for (normalized, every label known). */
  name: string;
  node: Hex;
  /** The nearest ancestor with a resolver, an extended one: the domain that makes the name resolvable. */
  bearer: AnyDomainModel;
  /** The registry that holds the bearer: the UnindexedDomain's `registry`, and part of its id. */
  registry: RegistryModel | V2RegistryModel;
  /** The bearer's resolver: the UnindexedDomain's effective one. */
  resolver: ResolverModel;
  /** The names strictly between the bearer and this one, top-down, each with the graph's domain of it, if any. */
  between: { name: string; indexed: AnyDomainModel | null }[];
}

type Found = Awaited<ReturnType<typeof loadDomainsByNode>>;

interface Bearer {
  /** Its place among the name's ancestors, nearest first. */
  index: number;
  domain: AnyDomainModel;
  registry: RegistryModel | V2RegistryModel;
  resolver: ResolverModel;
}

const utf8 = new TextEncoder();

/** ENSIP-10 hands the resolver the DNS-encoded name: every label must be known (no `[hash]`) and fit in 255 bytes. */
const isResolvableName = (name: string) =>
  name.split(".").every((l) => !isEncodedLabelhash(l) && utf8.encode(l).length <= 255);

/**
 * ENSv2 first, as resolution walks it: the nearest ancestor registered or reserved in ENSv2 with a resolver (over the
 * canonical tree; expiry is not read, as the peer's walk does not). ENSV1Resolver, or no such ancestor, defers to
 * ENSv1: `undefined`. Any other resolver decides, extended or not.
 */
function ensv2Bearer(ctx: OmnigraphContext, found: Found[]): Bearer | undefined {
  const ensv2 = ensv2SettingsOf(ctx.deps.namespace);
  if (!ensv2) return undefined;
  const live = (v2: V2DomainRow | null) => (v2 && v2.status !== "unregistered" ? nonZeroAddress(v2.resolver) : null);
  const index = found.findIndex((f) => live(f.v2) !== null);
  if (index < 0) return undefined;
  const row = found[index]!.v2!;
  const resolver = live(row)!;
  if (resolver === ensv2.ensv1Resolver) return undefined;
  return {
    index,
    domain: v2Domain(row),
    registry: v2Registry(row.chain_id, row.registry),
    resolver: { chainId: row.chain_id, address: resolver },
  };
}

/**
 * ENSv1: the nearest ancestor with a resolver in the registry that resolution reads for the name (the root chain's,
 * or an L2's for names under its managed name: the root chain's rows at and above `base.eth` are not that registry's,
 * nor are 3DNS's, which answer for their own names only).
 */
function ensv1Bearer(ctx: OmnigraphContext, name: string, found: Found[]): Bearer | undefined {
  const chainId = routeName(name, ctx.deps.namespace).registry?.chainId;
  if (chainId === undefined) return undefined;
  const rootChainId = rootChainIdOf(ctx.deps.namespace);
  for (let index = 0; index < found.length; index++) {
    const row = found[index]!.v1;
    const resolver = resolverOfSubgraphId(row?.resolver_id ?? null, rootChainId);
    if (row && resolver?.chainId === chainId) {
      return { index, domain: v1Domain(row), registry: registryOfDomain(row, ctx.deps.namespace), resolver };
    }
  }
  return undefined;
}

/** The UnindexedDomain of a normalized name the index has no domain of, or null when resolution cannot reach it. */
export async function unindexedDomainByName(ctx: OmnigraphContext, name: string): Promise<UnindexedDomainModel | null> {
  if (!isResolvableName(name)) return null;
  const ancestors = ancestorsOf(name).slice(1);
  const found = await Promise.all(ancestors.map((a) => loadDomainsByNode(ctx, a.node, false)));
  const bearer = ensv2Bearer(ctx, found) ?? ensv1Bearer(ctx, name, found);
  if (!bearer) return null;
  // ENSIP-10: a resolver found at an ancestor answers for the name only through `resolve()`.
  const { chainId, address } = bearer.resolver;
  if (!(await ctx.deps.resolution.onchainBackend.isExtendedResolver(chainId, address))) return null;
  const v2 = bearer.domain.__typename === "ENSv2Domain";
  const between = ancestors
    .slice(0, bearer.index)
    .map((a, i) => {
      const f = found[i]!;
      const indexed = v2 ? (f.v2 ? v2Domain(f.v2) : null) : f.v1 ? v1Domain(f.v1) : null;
      return { name: a.name, indexed };
    })
    .reverse();
  return {
    __typename: "UnindexedDomain",
    name,
    node: namehash(name) as Hex,
    bearer: bearer.domain,
    registry: bearer.registry,
    resolver: bearer.resolver,
    between,
  };
}

/** The peer's UnindexedDomainId: `unindexed-` + the bearer's registry id + `-` + the name's node. */
export function unindexedDomainId(d: UnindexedDomainModel): string {
  const registry = d.registry.__typename === "ENSv2Registry" ? v2RegistryId(d.registry) : registryId(d.registry);
  return `unindexed-${registry}-${d.node}`;
}

/** The UnindexedDomain of one of the names between the bearer and `d` (the `i`th, top-down). */
function unindexedAt(d: UnindexedDomainModel, i: number): UnindexedDomainModel {
  const name = d.between[i]!.name;
  return { ...d, name, node: namehash(name) as Hex, between: d.between.slice(0, i) };
}

/** The bearer's `canonical.path`: from the top-level domain down to the bearer. */
async function bearerPath(ctx: OmnigraphContext, bearer: AnyDomainModel): Promise<AnyDomainModel[]> {
  if (bearer.__typename === "ENSv2Domain") {
    const canonical = ensv2DomainResolvers.canonical(bearer);
    return canonical ? canonical.path(undefined, ctx) : [bearer];
  }
  const canonical = await domainResolvers.canonical(bearer, undefined, ctx);
  return canonical ? canonical.path(undefined, ctx) : [bearer];
}

export const unindexedDomainResolvers = {
  id: (d: UnindexedDomainModel) => unindexedDomainId(d),
  label: (d: UnindexedDomainModel) => {
    const first = d.name.split(".")[0]!;
    return { interpreted: first, beautified: beautifyLabel(first), hash: labelhashOf(first) };
  },
  canonical: (d: UnindexedDomainModel) => ({
    depth: depthOf(d.name),
    name: canonicalName(d.name),
    node: d.node,
    // The bearer's path, then each name below it: the graph's domain where it has one, else an UnindexedDomain.
    path: async (_: unknown, ctx: OmnigraphContext) => [
      ...(await bearerPath(ctx, d.bearer)),
      ...d.between.map((b, i) => b.indexed ?? unindexedAt(d, i)),
      d,
    ],
  }),
  owner: () => null,
  // As the peer: the domain the bearer's registry names as its own, i.e. the bearer's parent.
  parent: (d: UnindexedDomainModel, _: unknown, ctx: OmnigraphContext) =>
    d.bearer.__typename === "ENSv2Domain"
      ? ensv2DomainResolvers.parent(d.bearer as V2DomainModel, undefined, ctx)
      : domainResolvers.parent(d.bearer as DomainModel, undefined, ctx),
  registry: (d: UnindexedDomainModel) => d.registry,
  subregistry: () => null,
  registration: () => null,
  registrations: () => emptyConnection(),
  resolver: (d: UnindexedDomainModel) => ({ assigned: null, effective: d.resolver }),
  resolve: (d: UnindexedDomainModel, args: { accelerate: boolean }) => forwardResolve(d.name, args.accelerate),
  subdomains: () => emptyConnection(),
  events: () => emptyConnection(),
};
