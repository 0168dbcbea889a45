import type { Address, Hex } from "viem";
import { tokenIdToHex32 } from "./names";

/*
 * ENSv2 ids. A registry token id is the labelhash with its low 32 bits replaced by a version (contracts-v2's
 * LibLabel.withVersion); the storage id clears them and names one label of one registry whatever its version.
 *
 * The ids the Omnigraph shows are the peer's (ENSNode's enssdk `makeENSv2DomainId`, `makePermissionsUserId`,
 * `makeRegistrationId`, `makeRenewalId`): dash-joined parts, addresses lowercase, storage ids and resources as decimal
 * numbers. They are also the stored keys, so lists tie-broken by id come in the peer's order (the ids' text order).
 * Earlier builds wrote the numbers as `0x` + 64 hex: `v2IdFromInput` still reads that form.
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

/** `<chainId>-<registry>-<storageId, decimal>` for any token id, resource or labelhash of the label. */
export function domainIdOf(chainId: number, registry: Address, anyId: bigint): string {
  return `${chainId}-${registry.toLowerCase()}-${storageIdOf(anyId).toString()}`;
}

/** An EAC resource as ids and `ensv2_permission.resource` write it: decimal. */
export const resourceKey = (resource: bigint): string => resource.toString();

/** `<chainId>-<contract>-<resource, decimal>-<account>`: a PermissionsUser. */
export function permissionId(chainId: number, contract: Address, resource: bigint, account: Address): string {
  return `${chainId}-${contract.toLowerCase()}-${resourceKey(resource)}-${account.toLowerCase()}`;
}

/** `<domainId>-<index>`: a domain's registrations and reservations, numbered from 0 in log order. */
export const registrationIdOf = (domainId: string, index: number): string => `${domainId}-${index}`;

/** `<registrationId>-<index>`: a registration's renewals, numbered from 0 in log order. */
export const renewalIdOf = (registrationId: string, index: number): string => `${registrationId}-${index}`;

export const hex32 = (value: bigint): Hex => tokenIdToHex32(value);

/** An ensv2_token row: `<chainId>-<contract>-<token id as 0x + 64 hex>`, the token id with its version. */
export function tokenRowId(chainId: number, contract: Address, tokenId: bigint): string {
  return `${chainId}-${contract.toLowerCase()}-${hex32(tokenId)}`;
}

/** `<chainId>-<address>-` followed by a number written as earlier builds wrote it (`0x` + 64 hex) or as now. */
const V2_ID = /^(\d{1,10}-0x[0-9a-f]{40}-)(0x[0-9a-f]{64}|0|[1-9]\d{0,77})(-.*)?$/;

/**
 * An ENSv2 id as a client may give it (`domain(by: { id })`, a cursor) in the form we store: the number after the
 * contract (a domain's storage id, a permission's resource) in decimal when it came as `0x` + 64 hex, the rest as is,
 * lowercase. Anything else comes back lowercase and is not an id of ours (a lookup finds nothing).
 */
export function v2IdFromInput(id: string): string {
  const lower = id.toLowerCase();
  const m = V2_ID.exec(lower);
  if (!m || !m[2]!.startsWith("0x")) return lower;
  return `${m[1]}${BigInt(m[2]!).toString()}${m[3] ?? ""}`;
}

/** Whether `id` is an ENSv2 domain id in either form (decimal, or the earlier `0x` + 64 hex). */
export function isV2DomainId(id: string): boolean {
  const m = V2_ID.exec(id.toLowerCase());
  return m !== null && m[3] === undefined;
}

/** A resource as a client may give it (a cursor of `Permissions.resources`): decimal, also from `0x` + 64 hex. */
export function resourceFromInput(resource: string): string {
  return /^0x[0-9a-fA-F]{64}$/.test(resource) ? BigInt(resource).toString() : resource;
}
