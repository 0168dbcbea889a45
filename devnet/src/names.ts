import { concat, type Hex, keccak256, toBytes, toHex, zeroHash } from "viem";

// Our own labelhash/namehash over raw labels: viem's helpers read `[64hex]` labels as encoded hashes and split names
// on dots, but the scenario registers labels that look like `[…]` or contain dots on purpose.

export const labelhash = (label: string): Hex => keccak256(toBytes(label));

export const childNode = (parent: Hex, label: string): Hex => keccak256(concat([parent, labelhash(label)]));

/** Node of a name given as labels from the leaf up, e.g. ["vitalik", "eth"]. */
export const nodeOf = (labels: string[]): Hex =>
  labels.reduceRight<Hex>((node, label) => childNode(node, label), zeroHash);

/** DNS wire format (length-prefixed labels, then a zero byte), as NameWrapped and 3DNS carry names. */
export function dnsWire(labels: string[]): Hex {
  const parts: Uint8Array[] = [];
  for (const label of labels) {
    const bytes = toBytes(label);
    if (bytes.length === 0 || bytes.length > 255)
      throw new Error(`label of ${bytes.length} bytes cannot be DNS-encoded`);
    parts.push(Uint8Array.of(bytes.length), bytes);
  }
  parts.push(Uint8Array.of(0));
  return toHex(concat(parts));
}

export const ETH_NODE = nodeOf(["eth"]);
export const BASE_ETH_NODE = nodeOf(["base", "eth"]);
export const LINEA_ETH_NODE = nodeOf(["linea", "eth"]);

/** The name a chain's registrar manages: `<label>.eth`, the label from the chain's shape or the devnet's default. */
export function managedNameOf(chain: { managedLabel: string | undefined }, devnetLabel: string) {
  const label = chain.managedLabel ?? devnetLabel;
  return { label, name: `${label}.eth`, node: nodeOf([label, "eth"]) };
}
export const REVERSE_NODE = nodeOf(["reverse"]);
export const ADDR_REVERSE_NODE = nodeOf(["addr", "reverse"]);
