import type { Address, Hex } from "viem";
import { tokenIdToHex32 } from "../../../lib/names";

/*
 * ENSv2 ids. A registry token id is the labelhash with its low 32 bits replaced by a version (contracts-v2's
 * LibLabel.withVersion); the storage id clears them and names one label of one registry whatever its version.
 */

const VERSION_BITS = 0xffffffffn;

/** The token id (or EAC resource) with its version bits cleared. */
export function storageIdOf(anyId: bigint): bigint {
  return anyId & ~VERSION_BITS;
}

/** The version in a token id's (or resource's) low 32 bits. */
export function versionOf(anyId: bigint): bigint {
  return anyId & VERSION_BITS;
}

/** `anyId` with its version bits set to `version`. */
export function withVersion(anyId: bigint, version: bigint): bigint {
  return storageIdOf(anyId) | (version & VERSION_BITS);
}

export function registryId(chainId: number, address: Address): string {
  return `${chainId}-${address.toLowerCase()}`;
}

/** `<chainId>-<registry>-<storageId as 0x + 64 hex>` for any token id, resource or labelhash of the label. */
export function domainIdOf(chainId: number, registry: Address, anyId: bigint): string {
  return `${chainId}-${registry.toLowerCase()}-${tokenIdToHex32(storageIdOf(anyId))}`;
}

export function permissionId(chainId: number, contract: Address, resource: bigint, account: Address): string {
  return `${chainId}-${contract.toLowerCase()}-${tokenIdToHex32(resource)}-${account.toLowerCase()}`;
}

export const hex32 = (value: bigint): Hex => tokenIdToHex32(value);

/** An ensv2_token row: `<chainId>-<contract>-<token id as 0x + 64 hex>`, the token id with its version. */
export function tokenRowId(chainId: number, contract: Address, tokenId: bigint): string {
  return `${chainId}-${contract.toLowerCase()}-${hex32(tokenId)}`;
}
