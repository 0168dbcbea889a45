import { type Address, bytesToHex, type Hex, hexToBytes, zeroAddress } from "viem";
import { isEvmCoinType } from "../../../lib/coin-types";

/*
 * How a record's raw value becomes an answer, the same for the index and onchain reads: unset reads (empty bytes,
 * empty strings, the zero address of an EVM coin type) are null.
 */

export function interpretAddress(coinType: bigint, raw: Hex | null | undefined): string | null {
  if (!raw) return null;
  const bytes = hexToBytes(raw);
  if (bytes.length === 0) return null;
  if (isEvmCoinType(coinType) && bytes.length === 20 && bytes.every((b) => b === 0)) return null;
  return bytesToHex(bytes);
}

export function interpretText(raw: string | null | undefined): string | null {
  return raw === null || raw === undefined || raw === "" ? null : raw;
}

export const interpretName = interpretText;

/** Bytes records (contenthash): empty bytes are unset. */
export function interpretBytes(raw: Hex | null | undefined): string | null {
  if (!raw) return null;
  const bytes = hexToBytes(raw);
  return bytes.length === 0 ? null : bytesToHex(bytes);
}

/** A public key: unset when both coordinates are zero (what pubkey() answers for no record). */
export function interpretPubkey(x: Hex | null | undefined, y: Hex | null | undefined): { x: Hex; y: Hex } | null {
  if (!x || !y || (BigInt(x) === 0n && BigInt(y) === 0n)) return null;
  return { x: x.toLowerCase() as Hex, y: y.toLowerCase() as Hex };
}

/** ABI(node, mask)'s answer: content type 0 or empty data is none. */
export function interpretAbi(contentType: bigint | undefined, data: Hex | null | undefined) {
  const bytes = interpretBytes(data);
  return !contentType || bytes === null ? null : { contentType: contentType.toString(), data: bytes as Hex };
}

/** An implementer: the zero address is none. */
export function interpretImplementer(raw: Address | null | undefined): Address | null {
  return !raw || raw.toLowerCase() === zeroAddress ? null : (raw.toLowerCase() as Address);
}

/** A record version: 0 (never cleared, or a resolver without versions) is unset. */
export function interpretVersion(raw: bigint | number | string | null | undefined): string | null {
  return raw === null || raw === undefined || BigInt(raw) === 0n ? null : BigInt(raw).toString();
}
