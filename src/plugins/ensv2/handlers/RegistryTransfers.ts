import { isIndexed, on } from "../../shared/register";
import { batchTransferred, isDelivered, singleTransferred } from "../lib/transfers";

/**
 * The registries' ERC-1155 transfers, from the tree only (lib/transfers.ts): the root registry's, and those of every
 * address a SubregistryUpdated has named (a Ponder factory), so that no other NFT contract's transfer is fetched.
 */
export function register(): void {
  const root = "ensv2/RootRegistry";
  if (isIndexed(root)) {
    on(`${root}:TransferSingle`, async (context, event) => {
      if (await isDelivered(context, event, "root")) await singleTransferred(context, event);
    });
    on(`${root}:TransferBatch`, async (context, event) => {
      if (await isDelivered(context, event, "root")) await batchTransferred(context, event);
    });
  }
  const named = "ensv2/LinkedRegistry";
  if (isIndexed(named)) {
    on(`${named}:TransferSingle`, async (context, event) => {
      if (await isDelivered(context, event, "named")) await singleTransferred(context, event);
    });
    on(`${named}:TransferBatch`, async (context, event) => {
      if (await isDelivered(context, event, "named")) await batchTransferred(context, event);
    });
  }
}
