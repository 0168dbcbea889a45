import type { Address } from "viem";
import { tokenIdToHex32 } from "../../../lib/names";
import type { IndexedEvent, IndexingContext } from "../../shared/ens-handlers/context";
import { isIndexed, on } from "../../shared/register";
import { tokenTransferred } from "../lib/tokens";

/*
 * ERC-1155 names: the NameWrappers (ENS root, Lineanames) and the 3DNS tokens (Optimism, Base). The token id is the
 * node. 3DNS also emits RegistrationBurned, but always right after its TransferSingle to the zero address, which
 * already burns the token here.
 */

async function transfer(
  context: IndexingContext,
  event: IndexedEvent<unknown>,
  id: bigint,
  value: bigint,
  to: Address,
) {
  // A name token has a supply of one; a zero-value transfer moves nothing.
  if (value === 0n) return;
  const tokenId = tokenIdToHex32(id);
  await tokenTransferred(context, event, { assetNamespace: "erc1155", tokenId, domainId: tokenId, to });
}

export function register(): void {
  for (const C of [
    "tokenscope/ensroot/NameWrapper",
    "tokenscope/lineanames/NameWrapper",
    "tokenscope/threednsOptimism/Token",
    "tokenscope/threednsBase/Token",
  ] as const) {
    if (!isIndexed(C)) continue;
    on(`${C}:TransferSingle`, (context, event) =>
      transfer(context, event, event.args.id, event.args.value, event.args.to),
    );
    on(`${C}:TransferBatch`, async (context, event) => {
      const { ids, values, to } = event.args;
      if (ids.length !== values.length) {
        throw new Error(
          `tokenscope: TransferBatch in tx ${event.transaction.hash} on chain ${context.chain.id} has ${ids.length} ids but ${values.length} values`,
        );
      }
      for (let i = 0; i < ids.length; i++) await transfer(context, event, ids[i]!, values[i]!, to);
    });
  }
}
