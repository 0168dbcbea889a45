import { bytesToHex, type Hex, hexToBytes } from "viem";
import { isEvmCoinType } from "../../lib/coin-types";

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
