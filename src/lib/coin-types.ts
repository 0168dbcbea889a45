/**
 * Coin types (ENSIP-9, ENSIP-11): 60 is Ethereum mainnet's; an EVM chain's is 0x80000000 | chainId, and 0x80000000
 * itself is the default EVM coin type, which ENSIP-19 uses for the chain-agnostic default primary name.
 */
export const ETH_COIN_TYPE = 60n;
export const DEFAULT_EVM_COIN_TYPE = 0x80000000n;

/** The coin type a chain's addresses and primary names use: 60 on Ethereum mainnet (or the ENS root chain). */
export function coinTypeForChain(chainId: number, ensRootChainId: number): bigint {
  if (chainId === ensRootChainId || chainId === 1) return ETH_COIN_TYPE;
  return DEFAULT_EVM_COIN_TYPE | BigInt(chainId);
}

/** Whether a coin type's addresses are 20-byte EVM addresses (ETH, the default EVM type, or an ENSIP-11 chain). */
export function isEvmCoinType(coinType: bigint): boolean {
  return coinType === ETH_COIN_TYPE || (coinType >= DEFAULT_EVM_COIN_TYPE && coinType < 0x100000000n);
}
