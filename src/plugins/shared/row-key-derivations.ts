import type { Hex } from "viem";
import { domainId, eventId, type IdContext } from "../../lib/ids";
import { makeSubnode, tokenIdToHex32 } from "../../lib/names";
import { type DerivationEvent, type KeyDerivation, ponderKeyDerivations } from "../../runtime/ponder-hooks";
import { rootRegistriesOf } from "./root-registries";

/*
 * Row keys the handlers compute from an event, told to Ponder's row cache (patch 021). Once a table outgrows the
 * cache (PONDER_CACHE_BYTES; every table on mainnet), Ponder predicts the rows a batch will read from each event's
 * values and loads them in one query per table; a key it cannot predict is one database round trip inside the
 * handler. Ponder matches a key against the event's values as they are, so a Domain id (keccak256 of parent node
 * and labelhash) never matched. A derivation here that does not apply, or guesses wrong, costs a wasted read,
 * never a wrong row: the cache still reads what it did not predict.
 */

export type { DerivationEvent, KeyDerivation };

const derivations = ponderKeyDerivations();

const BYTES32 = /^0x[0-9a-fA-F]{64}$/;

/**
 * Tells the row cache how a handler derives a row key from an event. `derive` returns undefined for an event it does
 * not apply to; it runs on sampled events for every key Ponder could not explain, so it must be cheap and pure.
 */
export function deriveRowKey(name: string, derive: KeyDerivation): void {
  derivations[name] = derive;
}

/** A decoded argument of the event, if it has one by that name. */
export function argOf(event: DerivationEvent, argName: string): unknown {
  const args = event.event.args as Record<string, unknown> | undefined;
  return args !== undefined && args !== null && !Array.isArray(args) ? args[argName] : undefined;
}

/** A labelhash or node argument: a bytes32, or a uint256 token id (ERC-721/1155 ids are the labelhash or node). */
export function word(event: DerivationEvent, argName: string): Hex | undefined {
  const value = argOf(event, argName);
  if (typeof value === "bigint") return value >= 0n ? tokenIdToHex32(value) : undefined;
  if (typeof value === "string" && BYTES32.test(value)) return value.toLowerCase() as Hex;
  return undefined;
}

// The argument names that carry a labelhash in the registry's, registrars' and controllers' events.
const LABELHASH_ARGS = ["label", "labelhash", "labelHash", "id", "tokenId"] as const;

/**
 * The registry's NewOwner (and 3DNS's): the new subnode of `node`. Called by registerIndexing() (src/indexing/register.ts)
 * before any plugin registers: every registry handler derives its row this way.
 */
export function deriveNewOwnerSubnodes(): void {
  deriveRowKey("subnode(args.node, args.label)", (event) => {
    const node = word(event, "node");
    const label = word(event, "label");
    return node && label ? domainId(makeSubnode(node, label)) : undefined;
  });
}

/**
 * ENS's two root registries: a write to one reads the other's record of the node (the registry-with-fallback rule,
 * name-references.ts's v1ResolverMaybeChanged), whose key names a registry the event does not carry. Derived as a
 * part of the key (the address), so that Ponder's pattern spells the rest (chain, node or subnode). Called by
 * registerIndexing() with the others every registry's handlers share.
 */
export function deriveOtherRootRegistry(): void {
  deriveRowKey("the other root registry (log.address)", (event) => {
    const root = rootRegistriesOf();
    if (root === null || root.old === undefined || event.chain.id !== root.chainId) return undefined;
    const emitter = event.event.log?.address.toLowerCase();
    return emitter === root.current ? root.old : emitter === root.old ? root.current : undefined;
  });
}

/**
 * A registrar's events name only the labelhash (as a token id or bytes32); the row is its subnode under the name
 * the registrar manages. Called by every handler factory of a registrar, once per managed name.
 */
export function deriveSubnodesOf(parentNode: Hex, parentName: string): void {
  for (const argName of LABELHASH_ARGS) {
    deriveRowKey(`subnode(${parentName}, args.${argName})`, (event) => {
      const label = word(event, argName);
      return label ? domainId(makeSubnode(parentNode, label)) : undefined;
    });
  }
}

/**
 * An ERC-1155 transfer's event row (`<block>-<logIndex>-0`, the sub-index of a TransferSingle): Ponder's patterns
 * cannot spell the constant part. PostgreSQL inserts without reading, but on PGlite Ponder reads each inserted key
 * first (its conflict check), so an evicted `wrapped_transfer` cost one read per transfer: 21,965 of the 50,000-name
 * run's 0.9 % missed lookups. `ids` is read per event: the handlers' settings exist only once the config is loaded.
 */
export function deriveTransferEventIds(ids: () => IdContext): void {
  deriveEventIds(ids, 0);
}

/** Rows keyed by their log (`eventId`), with a constant sub-index or none. */
export function deriveEventIds(ids: () => IdContext, subIndex?: number): void {
  const name = subIndex === undefined ? "eventId(block, logIndex)" : `eventId(block, logIndex, sub-index ${subIndex})`;
  deriveRowKey(name, (event) => {
    const block = event.event.block?.number;
    const logIndex = event.event.log?.logIndex;
    return block !== undefined && logIndex !== undefined
      ? eventId(ids(), event.chain.id, block, logIndex, subIndex)
      : undefined;
  });
}

/** The derivations in force, by name (what the patched profile reads). */
export function keyDerivations(): Readonly<Record<string, KeyDerivation>> {
  return derivations;
}
