import { type Address, bytesToHex, concat, type Hex, hexToBytes, keccak256, toFunctionSelector } from "viem";
import { dnsEncode } from "../../../lib/dns-wire";
import type { Namespace } from "../../../namespaces/types";
import { currentStep, FORWARD_RESOLUTION } from "./trace";

/*
 * ENSv2 resolution rules, as contracts-v2 (5677359d) writes them, shared by the index and the chains' backends:
 *
 * - UniversalResolverV2.findResolver = LibRegistry.findResolver: from the root registry down, label by label
 *   (top-level first), `getResolver(label)` of the registry the walk is in (a resolver found there is remembered with
 *   its depth), then `getSubregistry(label)` to go on; the walk ends where a registry has no subregistry for the
 *   label. The result is the deepest resolver met (ENSIP-10). A PermissionedRegistry answers both with zero once the
 *   label is expired (`block.timestamp >= expiry`), reserved labels included while unexpired. Registries are followed
 *   by their raw subregistry pointers, canonical or not.
 * - Labels are the DNS-encoded name's bytes as they are: NameCoder at this pin hashes a `[64 hex]` label as its 66
 *   characters (no encoded-labelhash reading), so `LibLabel.id(label)` and the name's node are keccak of the bytes.
 * - PermissionedResolver answers `resolve(name, data)` for `namehash(getAlias(name) or name)`, computed the same
 *   literal way, and its `addr(node, coinType)` falls back to the default EVM address (coin type 0x80000000) for an
 *   EVM chain's coin type whose own record is empty (ENSIP19.chainFromCoinType > 0, which includes 60).
 */

export interface Ensv2Settings {
  chainId: number;
  rootRegistry: Address;
  ethRegistry: Address | undefined;
  /** The namespace's UniversalResolverV2 (devnet manifest `ensv2.contracts.UniversalResolverV2`), if deployed. */
  universalResolver: Address | undefined;
  /** ENSV1Resolver: the fallback resolver a deployment sets in ENSv2 for names that still live in ENSv1. */
  ensv1Resolver: Address | undefined;
}

const lower = (a: string | undefined) => a?.toLowerCase() as Address | undefined;

/** The namespace's ENSv2 deployment, or undefined where it has none (mainnet, sepolia). */
export function ensv2SettingsOf(namespace: Namespace): Ensv2Settings | undefined {
  const ds = namespace.datasources.ensv2;
  const rootRegistry = lower(ds?.contracts.RootRegistry?.address);
  if (!ds || !rootRegistry) return undefined;
  return {
    chainId: ds.chain.id,
    rootRegistry,
    ethRegistry: lower(ds.contracts.ETHRegistry?.address),
    universalResolver: lower(ds.contracts.UniversalResolverV2?.address),
    ensv1Resolver: lower(ds.contracts.ENSV1Resolver?.address),
  };
}

/** One label of a DNS-encoded name as ENSv2's contracts read it. */
export interface WireLabel {
  /** The label's bytes as a string (what `getResolver(label)` / `getSubregistry(label)` receive). */
  text: string;
  /** keccak256 of the label's bytes (`LibLabel.id`, NameCoder.readLabel). */
  labelhash: Hex;
}

const utf8 = new TextDecoder("utf-8");

/** The labels of a DNS-encoded name, leaf first; undefined when malformed (NameCoder would revert). */
export function wireLabels(wire: Hex | Uint8Array): WireLabel[] | undefined {
  const bytes = typeof wire === "string" ? hexToBytes(wire) : wire;
  const labels: WireLabel[] = [];
  let at = 0;
  while (at < bytes.length) {
    const size = bytes[at]!;
    const next = at + 1 + size;
    // NameCoder.nextLabel: the zero label must be the last byte, and nothing may run past the end.
    if ((size === 0) !== (at + 1 === bytes.length) || next > bytes.length) return undefined;
    if (size === 0) return labels;
    const raw = bytes.subarray(at + 1, next);
    labels.push({ text: utf8.decode(raw), labelhash: keccak256(raw) });
    at = next;
  }
  return undefined;
}

/** The name as a client sends it to the UniversalResolver (viem's packetToBytes: labels over 255 bytes hashed). */
export function ensv2LabelsOf(name: string): { wire: Hex; labels: WireLabel[] } {
  const wire = dnsEncode(name);
  return { wire, labels: wireLabels(wire)! };
}

const ZERO32: Hex = `0x${"00".repeat(32)}`;

/** NameCoder.namehash: the namehash of labels (leaf first) from each label's bytes, never an encoded labelhash. */
export function literalNamehash(labels: readonly WireLabel[]): Hex {
  let node = ZERO32;
  for (let i = labels.length - 1; i >= 0; i--) node = keccak256(concat([node, labels[i]!.labelhash]));
  return node;
}

/** What one registry says about one label: its resolver and subregistry, as `getResolver`/`getSubregistry` read. */
export interface RegistryStep {
  resolver: Address | null;
  subregistry: Address | null;
}

/**
 * LibRegistry.findResolver over a reader of registries: the deepest resolver on the way down from the root, with
 * its label index (0: the name's own, leaf first as `labels`).
 */
export async function walkEnsv2(
  rootRegistry: Address,
  labels: readonly WireLabel[],
  step: (registry: Address, label: WireLabel) => Promise<RegistryStep>,
): Promise<{ resolver: Address; index: number } | undefined> {
  let registry: Address | null = rootRegistry;
  let found: { resolver: Address; index: number } | undefined;
  for (let index = labels.length - 1; index >= 0 && registry !== null; index--) {
    const at: RegistryStep = await step(registry, labels[index]!);
    currentStep()?.span.event(FORWARD_RESOLUTION, "walk-registry", registry, {
      label: labels[index]!.text,
      resolver: at.resolver ?? "null",
      subregistry: at.subregistry ?? "null",
    });
    if (at.resolver) found = { resolver: at.resolver, index };
    registry = at.subregistry;
  }
  return found;
}

/** ENSIP19.chainFromCoinType: 1 for 60, the chain id of an ENSIP-11 coin type, else 0 (the default type included). */
export function chainFromCoinType(coinType: bigint): bigint {
  if (coinType === 60n) return 1n;
  const chain = coinType ^ 0x80000000n;
  return chain < 0x80000000n ? chain : 0n;
}

export const DEFAULT_COIN_TYPE = 0x80000000n;

/** `type(I).interfaceId`: the XOR of the selectors the interface itself declares. */
function interfaceId(signatures: string[]): Hex {
  const id = signatures.map((s) => Number.parseInt(toFunctionSelector(s).slice(2), 16)).reduce((a, b) => (a ^ b) >>> 0);
  return `0x${id.toString(16).padStart(8, "0")}`;
}

export const PERMISSIONED_RESOLVER_INTERFACE = interfaceId([
  "function initialize(address admin, uint256 roleBitmap)",
  "function setAlias(bytes fromName, bytes toName)",
  "function getAlias(bytes fromName)",
]);
export const PERMISSIONED_REGISTRY_INTERFACE = interfaceId([
  "function latestOwnerOf(uint256 tokenId)",
  "function getState(uint256 anyId)",
  "function getStatus(uint256 anyId)",
  "function getResource(uint256 anyId)",
  "function getTokenId(uint256 anyId)",
]);
/** WrapperRegistry answers `getResolver` with ENSV1Resolver for ENSv1 children not migrated yet: NameWrapper state. */
export const WRAPPER_REGISTRY_INTERFACE = interfaceId([
  "function initialize(bytes32 node, address parentRegistry, string childLabel, address admin, uint256 roleBitmap)",
  "function getWrappedName()",
  "function getWrappedNode()",
]);

/** Offsets of each label of a DNS-encoded name, the root terminator's included (PermissionedResolver._resolveAlias). */
function labelOffsets(bytes: Uint8Array): number[] {
  const offsets: number[] = [];
  for (let at = 0; at < bytes.length; at += 1 + bytes[at]!) offsets.push(at);
  return offsets;
}

/** The alias loop gave up: the resolver's own getAlias would run out of gas on it, or the bytes are not a name. */
export class AliasUnanswerable extends Error {}

const MAX_ALIAS_STEPS = 32;

/**
 * PermissionedResolver.getAlias: repeatedly rewrites the name by the alias of its longest aliased suffix (a prefix
 * before the suffix is kept) until no alias applies or the same alias matches twice running. `aliasOf` gives the
 * stored `toName` of each of the nodes asked (absent or empty: none). Returns the final name, or undefined for none.
 */
export async function resolveAlias(
  fromName: Hex,
  aliasOf: (nodes: Hex[]) => Promise<Map<Hex, Hex>>,
): Promise<Hex | undefined> {
  let current = hexToBytes(fromName);
  let prev: Hex | undefined;
  let toName: Uint8Array | undefined;
  for (let steps = 0; steps < MAX_ALIAS_STEPS; steps++) {
    const labels = wireLabels(current);
    if (!labels) throw new AliasUnanswerable("an alias is not a DNS-encoded name");
    const offsets = labelOffsets(current);
    // The node of the suffix starting at each offset: the name's, its parent's, …, the root's.
    const nodes = offsets.map((_, i) => literalNamehash(labels.slice(i)));
    const found = await aliasOf(nodes);
    const i = nodes.findIndex((n) => (found.get(n)?.length ?? 0) > 2);
    if (i < 0) return toName ? bytesToHex(toName) : undefined;
    const match = hexToBytes(found.get(nodes[i]!)!);
    const next = keccak256(match);
    if (next === prev) return toName ? bytesToHex(toName) : undefined;
    current = new Uint8Array([...current.subarray(0, offsets[i]!), ...match]);
    toName = current;
    prev = next;
  }
  throw new AliasUnanswerable(`more than ${MAX_ALIAS_STEPS} aliases in a row`);
}
