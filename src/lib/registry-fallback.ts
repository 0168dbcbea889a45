import type { Address } from "viem";

/** One registry's record of a node, as the index holds it. */
export interface RegistryRecord {
  resolver: Address | null;
  hasOwner: boolean;
}

/**
 * `resolver(node)` of a source from registry records: the registry with fallback answers from its own record while
 * that record has an owner (ENSRegistryWithFallback's `recordExists`), else from the old registry's.
 */
export function effectiveResolver(
  current: RegistryRecord | undefined,
  old: RegistryRecord | undefined,
  hasOld: boolean,
): Address | null {
  if (!hasOld || current?.hasOwner) return current?.resolver ?? null;
  return old?.resolver ?? null;
}
