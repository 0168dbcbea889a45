import type { Hex } from "viem";
import { isEvmCoinType } from "./coin-types";

/*
 * What counts as an address record pointing at an account (Account.nameReferences), and the ids of the name_reference
 * tables. An account is an EVM address, so only EVM coin types (60, the default EVM type and ENSIP-11 chains) can
 * point at one; a non-EVM coin's bytes (a bitcoin script, a solana key) never match an account and are not kept.
 */

const ZERO_20 = `0x${"00".repeat(20)}`;

/** The account an address record points at: its 20 bytes, lowercase, for an EVM coin type; else null (zero too). */
export function referencedAccount(coinType: bigint, value: Hex): Hex | null {
  if (!isEvmCoinType(coinType)) return null;
  const v = value.toLowerCase();
  if (!/^0x[0-9a-f]{40}$/.test(v) || v === ZERO_20) return null;
  return v as Hex;
}

/** An ENSv1 name on one chain: `<chainId>-<node>`. */
export const v1HolderId = (chainId: number, node: Hex) => `${chainId}-${node.toLowerCase()}`;

/** One name's reference under one coin type: `<holderId>-<coinType>`. */
export const nameReferenceId = (holderId: string, coinType: bigint | string) => `${holderId}-${coinType}`;
