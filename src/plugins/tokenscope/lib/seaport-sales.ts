import { type Address, type Hex, zeroAddress } from "viem";
import type { AssetNamespace } from "./transfers";

/*
 * Which Seaport 1.5 OrderFulfilled events are sales of a name, read from the event alone (pure, unit-tested):
 *
 * - Exactly one item of the order, offer and consideration together, is a name token (an ERC-721/ERC-1155 item of
 *   amount 1 at a contract tokenscope indexes on that chain), and no other NFT is in it: bundles and swaps are not
 *   sales of one name, so they are left out.
 * - Every other item is a payment, all in one currency (ETH, or one ERC-20); mixed currencies are left out.
 * - A listing offers the name (and nothing else): the offerer is the seller and the event's recipient the buyer. The buyer pays every
 *   consideration item: `price` is their sum, `sellerProceeds` the part paid to the seller (the rest is fees and
 *   royalties to others).
 * - An offer (bid) offers the payment and asks for the name: the name item's recipient is the buyer and the event's
 *   recipient (the fulfiller) the seller. `price` is the offered amount; the seller pays the order's fee items out of
 *   it, so `sellerProceeds` is the price less the payment items paid to others.
 * - Seaport names no recipient (zero address) when an order is filled by order matching (`matchOrders`): the event
 *   then says neither who bought a listing nor who sold into an offer, and both matched orders carry the name, so
 *   such fills are left out rather than counted twice or with a party missing.
 */

export const SeaportItemType = {
  NATIVE: 0,
  ERC20: 1,
  ERC721: 2,
  ERC1155: 3,
  ERC721_WITH_CRITERIA: 4,
  ERC1155_WITH_CRITERIA: 5,
} as const;

export interface SpentItem {
  itemType: number;
  token: Address;
  identifier: bigint;
  amount: bigint;
}

export interface ReceivedItem extends SpentItem {
  recipient: Address;
}

export interface OrderFulfilledArgs {
  orderHash: Hex;
  offerer: Address;
  zone: Address;
  recipient: Address;
  offer: readonly SpentItem[];
  consideration: readonly ReceivedItem[];
}

/** A contract whose tokens are names, and how its token id maps to the name's node. */
export interface NameTokenContract {
  assetNamespace: AssetNamespace;
  domainIdOf(tokenId: bigint): Hex;
}

export interface NameSale {
  orderHash: Hex;
  contract: Address;
  tokenId: bigint;
  assetNamespace: AssetNamespace;
  domainId: Hex;
  seller: Address;
  buyer: Address;
  currency: "ETH" | "ERC20";
  /** The ERC-20's address; null for ETH. */
  currencyToken: Address | null;
  price: bigint;
  sellerProceeds: bigint;
}

const ITEM_TYPE_OF: Record<AssetNamespace, number> = {
  erc721: SeaportItemType.ERC721,
  erc1155: SeaportItemType.ERC1155,
};

const isNft = (item: SpentItem) =>
  item.itemType >= SeaportItemType.ERC721 && item.itemType <= SeaportItemType.ERC1155_WITH_CRITERIA;
const isPayment = (item: SpentItem) =>
  item.itemType === SeaportItemType.NATIVE || item.itemType === SeaportItemType.ERC20;
const lower = (a: Address) => a.toLowerCase() as Address;
const sum = (items: readonly SpentItem[]) => items.reduce((total, i) => total + i.amount, 0n);

/** The order's sale of one name, or null when the order is not one by the rules above. */
export function saleOf(args: OrderFulfilledArgs, nameTokens: ReadonlyMap<string, NameTokenContract>): NameSale | null {
  const nameToken = (item: SpentItem) => {
    const c = nameTokens.get(item.token.toLowerCase());
    return c && item.itemType === ITEM_TYPE_OF[c.assetNamespace] && item.amount === 1n ? c : undefined;
  };
  const items: SpentItem[] = [...args.offer, ...args.consideration];
  const nfts = items.filter(isNft);
  if (nfts.length !== 1 || !nameToken(nfts[0]!)) return null;
  if (!items.every((i) => isNft(i) || isPayment(i))) return null;
  if (lower(args.recipient) === zeroAddress) return null;

  const payments = items.filter(isPayment);
  const currencies = new Set(
    payments.map((p) => (p.itemType === SeaportItemType.NATIVE ? "ETH" : `ERC20:${lower(p.token)}`)),
  );
  if (currencies.size !== 1) return null;
  const currencyToken = payments[0]!.itemType === SeaportItemType.ERC20 ? lower(payments[0]!.token) : null;

  const offeredName = args.offer.find(isNft);
  const item = offeredName ?? args.consideration.find(isNft)!;
  const token = nameToken(item)!;
  let seller: Address;
  let buyer: Address;
  let price: bigint;
  let sellerProceeds: bigint;
  if (offeredName) {
    // A listing: the name (alone: an offer that also pays the buyer is no plain sale) against what the buyer pays.
    if (args.offer.length !== 1) return null;
    seller = lower(args.offerer);
    buyer = lower(args.recipient);
    const paid = args.consideration.filter(isPayment);
    price = sum(paid);
    sellerProceeds = sum(paid.filter((p) => lower(p.recipient) === seller));
  } else {
    // An offer: the payment against the name (and the fees the seller pays out of the payment).
    const nameItem = args.consideration.find(isNft)!;
    seller = lower(args.recipient);
    buyer = lower(nameItem.recipient);
    price = sum(args.offer);
    const fees = sum(args.consideration.filter((p) => isPayment(p) && lower(p.recipient) !== seller));
    if (args.offer.length === 0 || fees > price) return null;
    sellerProceeds = price - fees;
  }
  return {
    orderHash: args.orderHash,
    contract: lower(item.token),
    tokenId: item.identifier,
    assetNamespace: token.assetNamespace,
    domainId: token.domainIdOf(item.identifier),
    seller,
    buyer,
    currency: currencyToken === null ? "ETH" : "ERC20",
    currencyToken,
    price,
    sellerProceeds,
  };
}
