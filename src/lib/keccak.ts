import type { Hex } from "viem";
import { keccak256 as keccak256Bytes } from "../../labels-service/src/keccak256.mjs";

/**
 * keccak256 as 0x-prefixed lowercase hex, through the project's specialised Keccak (labels-service/src/keccak256.mjs,
 * shared with the label service's ingest): ~3–4 µs for a label or a node pair against viem's 12–16 µs. A backfill
 * hashes every label it verifies and every node it derives (~100,000 times for 10,000 names).
 */
export function keccak256Hex(bytes: Uint8Array): Hex {
  return `0x${keccak256Bytes(bytes).toString("hex")}`;
}

/** keccak256 of two 32-byte hex words laid end to end (a subnode: parent node ‖ labelhash). */
export function keccak256OfWords(first: Hex, second: Hex): Hex {
  return keccak256Hex(Buffer.from(first.slice(2) + second.slice(2), "hex"));
}
