import { keccak256Hex } from "./keccak";

/** "0x" + 64 hex digits. Uppercase digits are accepted; lookups always use the lowercase form. */
const LABELHASH_PATTERN = /^0x[0-9a-fA-F]{64}$/;

export type Labelhash = `0x${string}`;

/** The lowercase form of a well-formed labelhash, or null when the input is not one. */
export function normalizeLabelhash(input: string): Labelhash | null {
  return LABELHASH_PATTERN.test(input) ? (input.toLowerCase() as Labelhash) : null;
}

export function labelhashToBytes(labelhash: Labelhash): Buffer {
  return Buffer.from(labelhash.slice(2), "hex");
}

export function bytesToLabelhash(bytes: Uint8Array): Labelhash {
  return `0x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")}`;
}

/** labelhash = keccak256(utf8(label)). */
export function labelhashOf(label: string): Labelhash {
  return keccak256Hex(Buffer.from(label, "utf8"));
}
