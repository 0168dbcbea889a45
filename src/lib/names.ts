import { type Hex, namehash, toHex } from "viem";
import { keccak256OfWords } from "../../labels-service/src/keccak";
import { BoundedMap } from "./bounded-map";

/** Names and nodes: ENSIP-1 namehash, subnodes, token ids, and joining labels into names. */

export const ROOT_NODE: Hex = "0x0000000000000000000000000000000000000000000000000000000000000000";
export const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000" as const;

/** Registrars' grace period: a .eth 2LD stays the registrant's for 90 days after it expires. */
export const GRACE_PERIOD_SECONDS = 7_776_000n;

/** ENSIP-1 namehash; encoded `[hash]` labels stand for their labelhash (viem's rule). */
export { namehash };

/**
 * Subnodes computed lately: one registration's events (NewOwner, the registrar's Transfer and NameRegistered, the
 * controller's event) ask for the same `(parent, labelhash)` one after another. Oldest out first past the bound.
 */
const recentSubnodes = new BoundedMap<string, Hex>(4096);

/** The node of `labelhash` under `parentNode`: keccak256(parentNode ‖ labelhash). */
export function makeSubnode(parentNode: Hex, labelhash: Hex): Hex {
  const key = parentNode + labelhash;
  let node = recentSubnodes.get(key);
  if (node === undefined) {
    node = keccak256OfWords(parentNode, labelhash);
    recentSubnodes.set(key, node);
  }
  return node;
}

/** ERC-721/1155 token ids are the labelhash (base registrars) or the node (NameWrapper) as a uint256. */
export function tokenIdToHex32(tokenId: bigint): Hex {
  return toHex(tokenId, { size: 32 });
}

/**
 * A name from a label and its parent's name. The root's name is null (compatible mode) or "" (default mode),
 * and a TLD's name is its label alone. A parent without a name yields no name, as in the subgraph.
 */
export function joinName(label: string, parentName: string | null, parentIsRoot: boolean): string | null {
  if (parentIsRoot) return label;
  if (parentName === null || parentName === "") return null;
  return `${label}.${parentName}`;
}
