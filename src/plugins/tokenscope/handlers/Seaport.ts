import * as schema from "ponder:schema";
import { getConfig } from "../../../config";
import { eventId } from "../../../lib/ids";
import { tokenIdToHex32 } from "../../../lib/names";
import { handlerSettings } from "../../shared/ens-handlers/context";
import { isIndexed, on } from "../../shared/register";
import { nameTokenContractsOn } from "../lib/name-token-contracts";
import { saleOf } from "../lib/seaport-sales";

export function register(): void {
  // Seaport 1.5 on the ENS root chain: every order it fills arrives here (Ponder filters by address only); the few
  // that sell one name become a name_sale row (the rules are in ../lib/seaport-sales.ts).
  const C = "tokenscope/ensroot/Seaport";
  if (isIndexed(C)) {
    const namespace = getConfig().namespace;
    const nameTokens = nameTokenContractsOn(namespace, namespace.datasources.ensroot!.chain.id);
    on(`${C}:OrderFulfilled`, async (context, event) => {
      const sale = saleOf(event.args, nameTokens);
      if (!sale) return;
      await context.db.insert(schema.nameSale).values({
        id: eventId(handlerSettings(), context.chain.id, event.block.number, event.log.logIndex),
        chainId: context.chain.id,
        orderHash: sale.orderHash.toLowerCase() as `0x${string}`,
        domainId: sale.domainId.toLowerCase() as `0x${string}`,
        contract: sale.contract,
        tokenId: tokenIdToHex32(sale.tokenId),
        assetNamespace: sale.assetNamespace,
        seller: sale.seller,
        buyer: sale.buyer,
        currency: sale.currency,
        currencyToken: sale.currencyToken,
        price: sale.price,
        sellerProceeds: sale.sellerProceeds,
        blockNumber: event.block.number,
        blockTimestamp: event.block.timestamp,
        logIndex: event.log.logIndex,
        transactionHash: event.transaction.hash,
      });
    });
  }
}
