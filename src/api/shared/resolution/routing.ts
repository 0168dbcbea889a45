import type { Address, Hex } from "viem";
import { namehash } from "viem";
import type { Namespace } from "../../../namespaces/types";

/*
 * Where a name's records live (pure). Names under a managed L2 name (`*.base.eth`, `*.linea.eth`) resolve on that
 * chain's registry, as the L1 bridge resolvers of those names do; the managed name itself resolves on the ENS root
 * chain. Names of two labels or more outside `.eth` and `.reverse` may be 3DNS registrations or their subnames
 * (checked first, exact node only). Everything else resolves on the ENS root chain's registry, which defers to the
 * old registry for nodes it has no owner for.
 */

export interface RegistrySource {
  chainId: number;
  registry: Address;
  /** The old registry the registry with fallback defers to (the ENS root chain only). */
  oldRegistry?: Address;
  /** 3DNS tokens answer `resolver(node)` for their own names only: no walk up to parents. */
  exactOnly?: boolean;
}

export interface Route {
  /** Tried first, in order; the first with a resolver for the exact node wins. */
  threedns: RegistrySource[];
  registry: RegistrySource | undefined;
}

/** ENS's own top-level names, which 3DNS never registers under. */
const NOT_3DNS_TLDS = new Set(["eth", "reverse"]);

const lower = (a: string | undefined) => a?.toLowerCase() as Address | undefined;

export function routeName(name: string, namespace: Namespace): Route {
  const ds = namespace.datasources;
  for (const l2 of [ds.basenames, ds.lineanames]) {
    const registry = lower(l2?.contracts.Registry?.address);
    if (l2?.managedName && registry && name.endsWith(`.${l2.managedName}`)) {
      return { threedns: [], registry: { chainId: l2.chain.id, registry } };
    }
  }
  const threedns: RegistrySource[] = [];
  const labels = name.split(".");
  if (labels.length >= 2 && !NOT_3DNS_TLDS.has(labels[labels.length - 1]!)) {
    for (const t of [ds.threednsOptimism, ds.threednsBase]) {
      const token = lower(t?.contracts.ThreeDNSToken?.address);
      if (t && token) threedns.push({ chainId: t.chain.id, registry: token, exactOnly: true });
    }
  }
  const root = ds.ensroot;
  const registry = lower(root?.contracts.Registry?.address);
  const oldRegistry = lower(root?.contracts.RegistryOld?.address);
  return {
    threedns,
    registry:
      root && registry ? { chainId: root.chain.id, registry, ...(oldRegistry ? { oldRegistry } : {}) } : undefined,
  };
}

/** The name and each ancestor, nearest first, without the root: where ENSIP-10 looks for a resolver. */
export function ancestorsOf(name: string): { name: string; node: Hex }[] {
  const labels = name.split(".");
  return labels.map((_, i) => {
    const n = labels.slice(i).join(".");
    return { name: n, node: namehash(n) };
  });
}

/** ENSIP-10: the nearest of the ancestors (nearest first) with a resolver, and whether it is the name's own. */
export function nearestResolver<T extends { resolver: Address | null }>(
  chain: T[],
): { resolver: Address; index: number } | undefined {
  const index = chain.findIndex((c) => c.resolver !== null);
  return index < 0 ? undefined : { resolver: chain[index].resolver!, index };
}
