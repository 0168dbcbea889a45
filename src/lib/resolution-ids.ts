import type { Address, Hex } from "viem";

/** Ids of the protocol-acceleration tables; addresses and nodes lowercase. */

/** A registry's record of a node: `<chainId>-<registry>-<node>`. */
export function registryNodeId(chainId: number, registry: Address, node: Hex): string {
  return `${chainId}-${registry.toLowerCase()}-${node.toLowerCase()}`;
}

/** One resolver's records for one node: `<chainId>-<resolver>-<node>`. */
export function resolverRecordsId(chainId: number, resolver: Address, node: Hex): string {
  return `${chainId}-${resolver.toLowerCase()}-${node.toLowerCase()}`;
}

/**
 * A keyed record under the records' current version: `<recordsId>-<version>-<key>`. The key comes last, so any
 * text key (dashes included) keeps ids unique.
 */
export function recordKeyId(recordsId: string, version: bigint, key: string): string {
  return `${recordsId}-${version}-${key}`;
}

/** A standalone reverse registrar's name for an address under a coin type: `<address>-<coinType>`. */
export function reverseNameId(address: Address, coinType: bigint): string {
  return `${address.toLowerCase()}-${coinType}`;
}
