import { type Address, type Hex, parseEther, zeroAddress } from "viem";
import { Chain, type Tx } from "../chain";
import { loadDevnetContracts } from "../contracts";
import type { RootContract } from "../deploy/root";
import type { ChainDeployment } from "../deploy/types";
import { labelhash } from "../names";
import type { ScenarioContext } from "./context";
import type { NameFacts, NameSaleFact, NameSalesScenario } from "./model";

/*
 * Name sales through the devnet's Seaport 1.5 stand-in on the root chain, played after the rest of the root story so
 * nothing before changes: ETH and ERC-20 listings of unwrapped (ERC-721) and wrapped (ERC-1155) .eth names with a
 * marketplace fee and a royalty, an ERC-20 offer (bid) the name's holder accepts, a resale of a name bought here, and
 * a bundle of two names (which is not a sale of one name). Each fill moves exactly the items its event reports.
 */

/** Fresh addresses with no history, so their balance changes are exactly the fees they were paid. */
export const MARKETPLACE_FEE_RECIPIENT = "0x000000000000000000000000000000000000fee1" as Address;
export const ROYALTY_RECIPIENT = "0x000000000000000000000000000000000000fee2" as Address;

const NATIVE = 0;
const ERC20 = 1;
const ERC721 = 2;
const ERC1155 = 3;

interface Item {
  itemType: number;
  token: Address;
  identifier: bigint;
  amount: bigint;
}
interface Received extends Item {
  recipient: Address;
}

interface Order {
  offerer: Address;
  offer: Item[];
  consideration: Received[];
  salt: bigint;
  fulfiller: Address;
  recipient: Address;
  value: bigint;
}

const hex32 = (n: bigint) => `0x${n.toString(16).padStart(64, "0")}` as Hex;

export async function playSales(ctx: ScenarioContext, d: ChainDeployment<RootContract>): Promise<NameSalesScenario> {
  const { own, real } = loadDevnetContracts();
  const { chain } = ctx;
  const seaport = d.contracts.Seaport.address;
  const token = d.contracts.SaleToken.address;
  const registrar = d.contracts.BaseRegistrar.address;
  const wrapper = d.contracts.NameWrapper.address;
  const call = (from: Address, to: Address, abi: import("viem").Abi, fn: string, args: unknown[], value?: bigint): Tx =>
    Chain.call(from, to, abi, fn, args, `sales ${fn}`, value);

  // Names whose holder the chain confirms, held by a plain account other than the cross-chain one.
  const holders = new Set(ctx.owners.filter((a) => a !== ctx.crossChainAccount).map((a) => a.toLowerCase()));
  const eth2lds = [...ctx.book.byNode.values()].filter(
    (f) => f.labels.length === 2 && f.labels[1] === "eth" && !f.deleted,
  );
  const unwrapped = eth2lds.filter((f) => !f.wrappedOwner && f.registrant && holders.has(f.registrant.toLowerCase()));
  const wrapped = eth2lds.filter((f) => f.wrappedOwner && holders.has(f.wrappedOwner.toLowerCase()));
  // The chain's holder of each candidate (a revert, e.g. an expired name, leaves it out).
  const holderOf = (to: Address, abi: import("viem").Abi, id: bigint) =>
    chain.read<Address>(to, abi, "ownerOf", [id]).catch(() => undefined);
  const live721: NameFacts[] = [];
  for (const f of unwrapped) {
    const owner = await holderOf(registrar, real.BaseRegistrarImplementation.abi, BigInt(labelhash(f.labels[0]!)));
    if (owner?.toLowerCase() === f.registrant!.toLowerCase()) live721.push(f);
  }
  const live1155: NameFacts[] = [];
  for (const f of wrapped) {
    const owner = await holderOf(wrapper, own.NameWrapper.abi, BigInt(f.node));
    if (owner?.toLowerCase() === f.wrappedOwner!.toLowerCase()) live1155.push(f);
  }
  // Four unwrapped names and one wrapped one make every kind of fill; a smaller scenario plays the ones it can.
  const [ethListed, bidFor, bundleA, bundleB] = ctx.sample(live721, 4) as (NameFacts | undefined)[];
  const [wrappedListed] = ctx.sample(live1155, 1) as (NameFacts | undefined)[];

  const erc721 = (f: NameFacts): Item => ({
    itemType: ERC721,
    token: registrar,
    identifier: BigInt(labelhash(f.labels[0]!)),
    amount: 1n,
  });
  const erc1155 = (f: NameFacts): Item => ({
    itemType: ERC1155,
    token: wrapper,
    identifier: BigInt(f.node),
    amount: 1n,
  });
  const ethTo = (amount: bigint, recipient: Address): Received => ({
    itemType: NATIVE,
    token: zeroAddress,
    identifier: 0n,
    amount,
    recipient,
  });
  const dstTo = (amount: bigint, recipient: Address): Received => ({
    itemType: ERC20,
    token,
    identifier: 0n,
    amount,
    recipient,
  });
  let salt = 1n;
  const listing = (seller: Address, name: Item[], pay: Received[], buyer: Address): Order => ({
    offerer: seller,
    offer: name,
    consideration: pay,
    salt: salt++,
    fulfiller: buyer,
    recipient: buyer,
    value: pay.filter((p) => p.itemType === NATIVE).reduce((s, p) => s + p.amount, 0n),
  });
  // Buyers are plain accounts too: the cross-chain account's names stay as the primary-name tests expect them.
  const buyerOtherThan = (seller: Address): Address => {
    for (;;) {
      const b = ctx.otherThan(seller);
      if (b !== ctx.crossChainAccount) return b;
    }
  };

  const lower = (a: Address) => a.toLowerCase() as Address;
  const fact = (
    f: NameFacts,
    item: Item,
    kind: NameSaleFact["kind"],
    seller: Address,
    buyer: Address,
    currency: "ETH" | "ERC20",
    price: bigint,
    proceeds: bigint,
    tx: Hex,
  ): NameSaleFact => ({
    name: f.name,
    node: f.node,
    kind,
    contract: lower(item.token),
    tokenId: hex32(item.identifier),
    assetNamespace: item.itemType === ERC721 ? "erc721" : "erc1155",
    seller: lower(seller),
    buyer: lower(buyer),
    currency,
    currencyToken: currency === "ETH" ? null : lower(token),
    price: price.toString(),
    sellerProceeds: proceeds.toString(),
    transactionHash: tx,
  });

  // Setup (approvals, play money, orders listed onchain) goes in one block; fills in the next (a resale after that).
  const setup: Tx[] = [];
  const approvals = new Set<string>();
  const approveNfts = (owner: Address, tokenContract: Address, abi: import("viem").Abi) => {
    const key = `${owner}|${tokenContract}`.toLowerCase();
    if (approvals.has(key)) return;
    approvals.add(key);
    setup.push(call(owner, tokenContract, abi, "setApprovalForAll", [seaport, true]));
  };
  const fund = (who: Address, amount: bigint) =>
    setup.push(call(chain.deployer, token, own.DevnetERC20.abi, "mint", [who, amount]));
  const allowTokens = (who: Address) => {
    const key = `${who}|${token}`.toLowerCase();
    if (approvals.has(key)) return;
    approvals.add(key);
    setup.push(call(who, token, own.DevnetERC20.abi, "approve", [seaport, 2n ** 255n]));
  };
  const plays: { order: Order; round: 1 | 2; done: (tx: Hex) => void }[] = [];
  const sales: NameSaleFact[] = [];
  const notSales: NameSalesScenario["notSales"] = [];

  if (ethListed) {
    const seller = ethListed.registrant!;
    const buyer = buyerOtherThan(seller);
    const pay = [
      ethTo(parseEther("0.95"), seller),
      ethTo(parseEther("0.025"), MARKETPLACE_FEE_RECIPIENT),
      ethTo(parseEther("0.025"), ROYALTY_RECIPIENT),
    ];
    approveNfts(seller, registrar, real.BaseRegistrarImplementation.abi);
    plays.push({
      order: listing(seller, [erc721(ethListed)], pay, buyer),
      round: 1,
      done: (tx) => {
        sales.push(
          fact(ethListed, erc721(ethListed), "listing", seller, buyer, "ETH", parseEther("1"), parseEther("0.95"), tx),
        );
        ethListed.registrant = buyer;
      },
    });
  }
  if (wrappedListed) {
    const seller = wrappedListed.wrappedOwner!;
    const buyer = buyerOtherThan(seller);
    approveNfts(seller, wrapper, own.NameWrapper.abi);
    fund(buyer, parseEther("500"));
    allowTokens(buyer);
    plays.push({
      order: listing(
        seller,
        [erc1155(wrappedListed)],
        [dstTo(parseEther("490"), seller), dstTo(parseEther("10"), MARKETPLACE_FEE_RECIPIENT)],
        buyer,
      ),
      round: 1,
      done: (tx) =>
        sales.push(
          fact(
            wrappedListed,
            erc1155(wrappedListed),
            "listing",
            seller,
            buyer,
            "ERC20",
            parseEther("500"),
            parseEther("490"),
            tx,
          ),
        ),
    });
    // Its buyer sells it on for ETH.
    const next = buyerOtherThan(buyer);
    approveNfts(buyer, wrapper, own.NameWrapper.abi);
    plays.push({
      order: listing(
        buyer,
        [erc1155(wrappedListed)],
        [ethTo(parseEther("1.5"), buyer), ethTo(parseEther("0.05"), ROYALTY_RECIPIENT)],
        next,
      ),
      round: 2,
      done: (tx) => {
        sales.push(
          fact(
            wrappedListed,
            erc1155(wrappedListed),
            "listing",
            buyer,
            next,
            "ETH",
            parseEther("1.55"),
            parseEther("1.5"),
            tx,
          ),
        );
        wrappedListed.wrappedOwner = next;
      },
    });
  }
  if (bidFor) {
    // An offer: the bidder offers the token and asks for the name (and the fee its holder pays out of the price).
    const seller = bidFor.registrant!;
    const bidder = buyerOtherThan(seller);
    approveNfts(seller, registrar, real.BaseRegistrarImplementation.abi);
    fund(bidder, parseEther("300"));
    allowTokens(bidder);
    allowTokens(seller);
    plays.push({
      order: {
        offerer: bidder,
        offer: [{ itemType: ERC20, token, identifier: 0n, amount: parseEther("300") }],
        consideration: [{ ...erc721(bidFor), recipient: bidder }, dstTo(parseEther("6"), MARKETPLACE_FEE_RECIPIENT)],
        salt: salt++,
        fulfiller: seller,
        recipient: seller,
        value: 0n,
      },
      round: 1,
      done: (tx) => {
        sales.push(
          fact(bidFor, erc721(bidFor), "offer", seller, bidder, "ERC20", parseEther("300"), parseEther("294"), tx),
        );
        bidFor.registrant = bidder;
      },
    });
  }
  if (bundleA && bundleB) {
    // A bundle of two names; the second moves to the first's holder beforehand when they differ.
    const seller = bundleA.registrant!;
    const buyer = buyerOtherThan(seller);
    if (bundleB.registrant!.toLowerCase() !== seller.toLowerCase()) {
      setup.push(
        call(bundleB.registrant!, registrar, real.BaseRegistrarImplementation.abi, "transferFrom", [
          bundleB.registrant!,
          seller,
          erc721(bundleB).identifier,
        ]),
      );
    }
    approveNfts(seller, registrar, real.BaseRegistrarImplementation.abi);
    plays.push({
      order: listing(seller, [erc721(bundleA), erc721(bundleB)], [ethTo(parseEther("2"), seller)], buyer),
      round: 1,
      done: (tx) => {
        notSales.push({ transactionHash: tx, why: "a bundle of two names", names: [bundleA.name, bundleB.name] });
        bundleA.registrant = buyer;
        bundleB.registrant = buyer;
      },
    });
  }
  for (const p of plays)
    setup.push(
      call(p.order.offerer, seaport, own.DevnetSeaport.abi, "validate", [
        p.order.offer,
        p.order.consideration,
        p.order.salt,
      ]),
    );
  if (setup.length > 0) await chain.send(setup);
  const fill = (o: Order) =>
    call(
      o.fulfiller,
      seaport,
      own.DevnetSeaport.abi,
      "fulfill",
      [o.offerer, o.offer, o.consideration, o.salt, o.recipient],
      o.value,
    );
  for (const round of [1, 2] as const) {
    const now = plays.filter((p) => p.round === round);
    if (now.length === 0) continue;
    const receipts = await chain.send(now.map((p) => fill(p.order)));
    now.forEach((p, i) => p.done(receipts[i]!.transactionHash));
  }

  ctx.log(`root: ${plays.length} Seaport fills (${sales.length} name sales)`);
  return {
    sales,
    notSales,
    seaport: lower(seaport),
    saleToken: lower(token),
    feeRecipients: [MARKETPLACE_FEE_RECIPIENT, ROYALTY_RECIPIENT],
  };
}
