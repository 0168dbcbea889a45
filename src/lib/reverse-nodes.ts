import { type Address, type Hex, namehash } from "viem";
import { labelhashOf } from "./labels";

/** namehash("addr.reverse"): the parent of every legacy reverse node. */
export const ADDR_REVERSE_NODE: Hex = namehash("addr.reverse");

/** The label of an address under addr.reverse: its lowercase hex without 0x (ENSIP-3). */
export function reverseLabel(address: Address): string {
  return address.slice(2).toLowerCase();
}

/** namehash(`<hex>.addr.reverse`) of an address. */
export function legacyReverseNode(address: Address): Hex {
  return namehash(`${reverseLabel(address)}.addr.reverse`);
}

/**
 * Which of the candidates (the transaction's sender, the new owner) a new `addr.reverse` subnode reverses: the one
 * whose hex label hashes to the event's labelhash. Undefined when none does (a subnode made some other way).
 */
export function reversedAddress(labelhash: Hex, candidates: readonly Address[]): Address | undefined {
  const wanted = labelhash.toLowerCase();
  return candidates.find((a) => labelhashOf(reverseLabel(a)) === wanted)?.toLowerCase() as Address | undefined;
}
