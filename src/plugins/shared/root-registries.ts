import type { Address } from "viem";
import { getConfig } from "../../config";

/** The ENS root chain's registry with fallback and its old registry, lowercase. */
export interface RootRegistries {
  chainId: number;
  current: Address;
  old: Address | undefined;
}

/** Read from the config once; null where the namespace has no ENS root registry. */
let rootRegistries: RootRegistries | null | undefined;

/** Replaces the registries read from the config (tests of the handlers without a namespace). */
export function setRootRegistries(next: { chainId: number; current: Address; old?: Address } | null) {
  rootRegistries =
    next === null
      ? null
      : {
          chainId: next.chainId,
          current: next.current.toLowerCase() as Address,
          old: next.old?.toLowerCase() as Address | undefined,
        };
}

export function rootRegistriesOf(): RootRegistries | null {
  if (rootRegistries === undefined) {
    const root = getConfig().namespace.datasources.ensroot;
    const current = root?.contracts.Registry?.address?.toLowerCase() as Address | undefined;
    rootRegistries =
      root && current
        ? {
            chainId: root.chain.id,
            current,
            old: root.contracts.RegistryOld?.address?.toLowerCase() as Address | undefined,
          }
        : null;
  }
  return rootRegistries;
}

/** Whether `registry` on `chainId` is ENS's registry with fallback (the root chain's registry, where an old one exists). */
export function isRegistryWithFallback(chainId: number, registry: Address): boolean {
  const root = rootRegistriesOf();
  return root !== null && root.old !== undefined && root.chainId === chainId && registry.toLowerCase() === root.current;
}
