import { type Address, type Hex, zeroAddress } from "viem";

/*
 * The pure rules of a name token's state (mint from the zero address, burn to it, the current owner otherwise), so
 * they are unit-tested apart from the store.
 */

export type AssetNamespace = "erc721" | "erc1155";
export type MintStatus = "minted" | "burned";

export interface TokenState {
  owner: Address;
  mintStatus: MintStatus;
}

/** `<chainId>-<contract>-<tokenId>` with the token id as 0x + 64 hex. */
export function nameTokenId(chainId: number, contract: Address, tokenId: Hex): string {
  return `${chainId}-${contract.toLowerCase()}-${tokenId.toLowerCase()}`;
}

/**
 * A token's state after a transfer: whoever receives it holds it, and a transfer to the zero address burns it (a
 * later mint re-mints it). The state depends only on the receiver, so a missed or repeated event cannot leave an
 * owner that contradicts the chain's last transfer.
 */
export function stateAfterTransfer(to: Address): TokenState {
  const owner = to.toLowerCase() as Address;
  return { owner, mintStatus: owner === zeroAddress ? "burned" : "minted" };
}
