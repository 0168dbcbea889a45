import { type Address, type Hex, zeroAddress } from "viem";
import { ROOT_NODE } from "./names";

/*
 * ENS's registry with fallback (ENSRegistryWithFallback, mainnet's registry since 2020) answers `resolver(node)`,
 * `owner(node)` and `ttl(node)` from its own record of a node while `recordExists(node)`, and from the old registry's
 * otherwise. `recordExists` reads the stored owner, and the contract never stores zero: `_setOwner` keeps a zero
 * owner as the registry's own address (and `owner(node)` reads that back as 0x0). So once the new registry has
 * written a node (its constructor writes the root; NewOwner and Transfer write the rest), the node is the new
 * registry's for good, whoever owns it: a name burned to 0x0 keeps the resolver the new registry holds for it.
 * This file is the one place that rule lives: resolution from the index, name references and the protocol
 * acceleration tables read it here; the subgraph's `isMigrated` (src/plugins/shared/ens-handlers/registry.ts) is the
 * same fact for its event history, set by the first new-registry NewOwner and never unset.
 */

/** One registry's record of a node, as the index holds it. */
export interface RegistryRecord {
  resolver: Address | null;
  /** The registry's `recordExists(node)`: whether it stores an owner (itself, for a burned node) for the node. */
  recordExists: boolean;
}

/**
 * `recordExists(node)` after a write of `owner` (NewOwner, Transfer). The registry with fallback stores a zero owner
 * as itself, so its record stays; a registry without fallback (ENS's old registry, the L2 registries) stores zero,
 * and its record is gone (nothing asks such a registry whether a record exists: it has no fallback to defer to).
 */
export function recordExistsAfterOwnerWrite(owner: Address, registryHasFallback: boolean): boolean {
  return registryHasFallback || owner.toLowerCase() !== zeroAddress;
}

/**
 * `resolver(node)` of a source from registry records: with an old registry to fall back to, the registry with
 * fallback answers from its own record while that record exists (the root's always: its constructor writes it),
 * else from the old registry's; a registry without fallback answers from its own record.
 */
export function effectiveResolver(
  node: Hex,
  current: RegistryRecord | undefined,
  old: RegistryRecord | undefined,
  hasOld: boolean,
): Address | null {
  if (!hasOld || current?.recordExists || node === ROOT_NODE) return current?.resolver ?? null;
  return old?.resolver ?? null;
}

/** Whether the old registry's record of `node` can matter: the new registry has no record of it. */
export const defersToOld = (node: Hex, current: RegistryRecord | undefined): boolean =>
  !current?.recordExists && node !== ROOT_NODE;
