import { keccak256 as keccak256Bytes } from "./keccak256.mjs";

/** 0x + lowercase hex digits (viem's Hex, spelled out: the label service does not depend on viem). */
type Hex = `0x${string}`;

/*
 * The one keccak256 module of the project: the label service (labelhash.ts) and the indexer (src/lib/names.ts,
 * src/lib/dns-wire.ts) both hash through it, over the generated Keccak of keccak256.mjs. It lives here because the
 * label service is its own package and must not import the indexer.
 */

/**
 * keccak256 as 0x-prefixed lowercase hex, through the project's specialised Keccak (keccak256.mjs, also used raw by
 * the label service's ingest workers): ~3–4 µs for a label or a node pair against viem's 12–16 µs. A backfill
 * hashes every label it verifies and every node it derives (~100,000 times for 10,000 names).
 */
export function keccak256Hex(bytes: Uint8Array): Hex {
  return `0x${keccak256Bytes(bytes).toString("hex")}`;
}

/** keccak256 of two 32-byte hex words laid end to end (a subnode: parent node ‖ labelhash). */
export function keccak256OfWords(first: Hex, second: Hex): Hex {
  return keccak256Hex(Buffer.from(first.slice(2) + second.slice(2), "hex"));
}
