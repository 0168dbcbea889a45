import * as schema from "ponder:schema";
import type { Address, Hex } from "viem";
import type { IndexedEvent, IndexingContext } from "../../shared/ens-handlers/context";
import { type AssetNamespace, nameTokenId, stateAfterTransfer } from "./transfers";

export interface TokenTransfer {
  assetNamespace: AssetNamespace;
  tokenId: Hex;
  /** The node of the name the token represents. */
  domainId: Hex;
  to: Address;
}

/** Records one token transfer (mint, transfer or burn) of the emitting contract. */
export async function tokenTransferred(
  context: IndexingContext,
  event: IndexedEvent<unknown>,
  t: TokenTransfer,
): Promise<void> {
  const contract = event.log.address.toLowerCase() as Address;
  const state = stateAfterTransfer(t.to);
  await context.db
    .insert(schema.nameToken)
    .values({
      id: nameTokenId(context.chain.id, contract, t.tokenId),
      chainId: context.chain.id,
      contract,
      tokenId: t.tokenId.toLowerCase() as Hex,
      assetNamespace: t.assetNamespace,
      domainId: t.domainId.toLowerCase() as Hex,
      ...state,
    })
    .onConflictDoUpdate(state);
}
