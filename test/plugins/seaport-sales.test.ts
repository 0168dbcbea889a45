import { type Address, type Hex, zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { makeSubnode, namehash, tokenIdToHex32 } from "../../src/lib/names";
import { mainnetNamespace } from "../../src/namespaces/mainnet";
import { nameTokenContractsOn } from "../../src/plugins/tokenscope/lib/name-token-contracts";
import {
  type OrderFulfilledArgs,
  type ReceivedItem,
  type SpentItem,
  saleOf,
} from "../../src/plugins/tokenscope/lib/seaport-sales";

/* What an OrderFulfilled of Seaport 1.5 counts as: the shapes OpenSea produces and the ones left out. */

const REGISTRAR = "0x57f1887a8bf19b14fc0df6fd9b2acc9af147ea85" as Address;
const WRAPPER = "0xd4416b13d2b3a9abae7acd5d6c2bbdbe25686401" as Address;
const WETH = "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2" as Address;
const USDC = "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48" as Address;
const OTHER_NFT = "0xbc4ca0eda7647a8ab7c2061c2e118a18a936f13d" as Address;
const SELLER = "0x1111111111111111111111111111111111111111" as Address;
const BUYER = "0x2222222222222222222222222222222222222222" as Address;
const FEE = "0x0000a26b00c1f0df003000390027140000faa719" as Address;
const ROYALTY = "0x3333333333333333333333333333333333333333" as Address;
const LABELHASH = 0x4f5b812789fc606be1b3b16908db13fc7a9adf7ca72641f84d75b47069d3d7f0n;
const tokens = nameTokenContractsOn(mainnetNamespace, 1);

const nft = (token: Address, identifier: bigint, itemType = token === WRAPPER ? 3 : 2): SpentItem => ({
  itemType,
  token,
  identifier,
  amount: 1n,
});
const eth = (amount: bigint, recipient: Address): ReceivedItem => ({
  itemType: 0,
  token: zeroAddress,
  identifier: 0n,
  amount,
  recipient,
});
const erc20 = (token: Address, amount: bigint, recipient: Address): ReceivedItem => ({
  itemType: 1,
  token,
  identifier: 0n,
  amount,
  recipient,
});
const to = (item: SpentItem, recipient: Address): ReceivedItem => ({ ...item, recipient });
const spent = ({ recipient: _, ...item }: ReceivedItem): SpentItem => item;

function order(o: Partial<OrderFulfilledArgs>): OrderFulfilledArgs {
  return {
    orderHash: `0x${"ab".repeat(32)}` as Hex,
    offerer: SELLER,
    zone: zeroAddress,
    recipient: BUYER,
    offer: [],
    consideration: [],
    ...o,
  };
}

describe("saleOf", () => {
  it("knows mainnet's name tokens on chain 1 only", () => {
    expect([...tokens.keys()].sort()).toEqual([REGISTRAR, WRAPPER].sort());
    expect(nameTokenContractsOn(mainnetNamespace, 8453).has(REGISTRAR)).toBe(false);
  });

  it("a listing for ETH: the buyer pays every item, the seller gets its own", () => {
    const sale = saleOf(
      order({
        offer: [nft(REGISTRAR, LABELHASH)],
        consideration: [eth(975n, SELLER), eth(25n, FEE), eth(50n, ROYALTY)],
      }),
      tokens,
    );
    expect(sale).toEqual({
      orderHash: `0x${"ab".repeat(32)}`,
      contract: REGISTRAR,
      tokenId: LABELHASH,
      assetNamespace: "erc721",
      domainId: makeSubnode(namehash("eth"), tokenIdToHex32(LABELHASH)),
      seller: SELLER,
      buyer: BUYER,
      currency: "ETH",
      currencyToken: null,
      price: 1050n,
      sellerProceeds: 975n,
    });
  });

  it("a listing of a wrapped name for an ERC-20", () => {
    const node = 0x1234n;
    const sale = saleOf(
      order({ offer: [nft(WRAPPER, node)], consideration: [erc20(USDC, 90n, SELLER), erc20(USDC, 10n, FEE)] }),
      tokens,
    );
    expect(sale).toMatchObject({
      assetNamespace: "erc1155",
      domainId: tokenIdToHex32(node),
      currency: "ERC20",
      currencyToken: USDC,
      price: 100n,
      sellerProceeds: 90n,
    });
  });

  it("an offer (bid) in WETH: the name goes to the bidder, the fulfiller sells and pays the fees out of the price", () => {
    const sale = saleOf(
      order({
        offerer: BUYER,
        recipient: SELLER,
        offer: [spent(erc20(WETH, 1000n, zeroAddress))],
        consideration: [to(nft(REGISTRAR, LABELHASH), BUYER), erc20(WETH, 25n, FEE), erc20(WETH, 50n, ROYALTY)],
      }),
      tokens,
    );
    expect(sale).toMatchObject({
      seller: SELLER,
      buyer: BUYER,
      currency: "ERC20",
      currencyToken: WETH,
      price: 1000n,
      sellerProceeds: 925n,
    });
  });

  it("addresses come out lowercase whatever the event's case", () => {
    const upper = (a: Address) => a.toUpperCase().replace("0X", "0x") as Address;
    const sale = saleOf(
      order({
        offerer: upper(SELLER),
        recipient: upper(BUYER),
        offer: [nft(upper(REGISTRAR), 1n)],
        consideration: [eth(1n, upper(SELLER))],
      }),
      tokens,
    );
    expect(sale).toMatchObject({ seller: SELLER, buyer: BUYER, contract: REGISTRAR, sellerProceeds: 1n });
  });

  it.each<[string, Partial<OrderFulfilledArgs>]>([
    ["a bundle of two names", { offer: [nft(REGISTRAR, 1n), nft(REGISTRAR, 2n)], consideration: [eth(10n, SELLER)] }],
    ["a name with another NFT", { offer: [nft(REGISTRAR, 1n), nft(OTHER_NFT, 2n)], consideration: [eth(10n, SELLER)] }],
    [
      "a name swapped for another NFT",
      { offer: [nft(REGISTRAR, 1n)], consideration: [to(nft(OTHER_NFT, 2n), SELLER)] },
    ],
    ["another collection's NFT", { offer: [nft(OTHER_NFT, 1n)], consideration: [eth(10n, SELLER)] }],
    [
      "ETH and an ERC-20 together",
      { offer: [nft(REGISTRAR, 1n)], consideration: [eth(10n, SELLER), erc20(WETH, 1n, FEE)] },
    ],
    ["two ERC-20s", { offer: [nft(REGISTRAR, 1n)], consideration: [erc20(USDC, 10n, SELLER), erc20(WETH, 1n, FEE)] }],
    ["a gift (no payment)", { offer: [nft(REGISTRAR, 1n)], consideration: [] }],
    [
      "a matched order (no recipient)",
      { recipient: zeroAddress, offer: [nft(REGISTRAR, 1n)], consideration: [eth(10n, SELLER)] },
    ],
    ["an ERC-1155 amount of 2", { offer: [{ ...nft(WRAPPER, 1n), amount: 2n }], consideration: [eth(10n, SELLER)] }],
    [
      "the registrar's token as an ERC-1155 item",
      { offer: [nft(REGISTRAR, 1n, 3)], consideration: [eth(10n, SELLER)] },
    ],
    ["an unresolved criteria item", { offer: [nft(REGISTRAR, 1n, 4)], consideration: [eth(10n, SELLER)] }],
    [
      "a listing that also pays the buyer",
      { offer: [nft(REGISTRAR, 1n), spent(eth(5n, zeroAddress))], consideration: [eth(10n, SELLER)] },
    ],
    [
      "an offer whose fees exceed the price",
      {
        offerer: BUYER,
        recipient: SELLER,
        offer: [spent(erc20(WETH, 10n, zeroAddress))],
        consideration: [to(nft(REGISTRAR, 1n), BUYER), erc20(WETH, 11n, FEE)],
      },
    ],
  ])("is not a sale: %s", (_, o) => {
    expect(saleOf(order(o), tokens)).toBeNull();
  });
});
