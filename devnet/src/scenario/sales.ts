import { type Address, type Hex, parseEther, zeroAddress } from "viem";
import { Chain, type Tx } from "../chain";
import { loadDevnetContracts } from "../contracts";
import type { RootContract } from "../deploy/root";
import type { ChainDeployment } from "../deploy/types";
import { labelhash } from "../names";
import type { ScenarioContext } from "./context";
import type { NameFacts } from "./model";

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

/** What the scenario sold: the sale the indexer must report for the fill in `transactionHash`. */
export interface NameSaleFact {
  name: string;
  node: Hex;
  kind: "listing" | "offer";
  contract: Address;
  tokenId: Hex;
  assetNamespace: "erc721" | "erc1155";
  seller: Address;
  buyer: Address;
  currency: "ETH" | "ERC20";
  currencyToken: Address | null;
  /** Decimal strings (wei / the token's smallest unit). */
  price: string;
  sellerProceeds: string;
  transactionHash: Hex;
}

export interface NameSalesScenario {
  sales: NameSaleFact[];
  /** Fills that are no sale of one name (a bundle), with why. */
  notSales: { transactionHash: Hex; why: string; names: string[] }[];
  seaport: Address;
  saleToken: Address;
  feeRecipients: Address[];
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
  const eth2lds = [...ctx.book.byNode.values()].filter((f) => f.labels.length === 2 && f.labels[1] === "eth" && !f.deleted);
  const unwrapped = eth2lds.filter((f) => !f.wrappedOwner && f.registrant && holders.has(f.registrant.toLowerCase()));
  const wrapped = eth2lds.filter((f) => f.wrappedOwner && holders.has(f.wrappedOwner.toLowerCase()));
  const erc721Owners = await chain.readMany<Address>(
    unwrapped.map((f) => ({ to: registrar, abi: real.BaseRegistrarImplementation.abi, functionName: "ownerOf", args: [BigInt(labelhash(f.labels[0]!))] })),
  );
  const erc1155Owners = await chain.readMany<Address>(
    wrapped.map((f) => ({ to: wrapper, abi: own.NameWrapper.abi, functionName: "ownerOf", args: [BigInt(f.node)] })),
  );
  const live721 = ctx.sample(unwrapped.filter((f, i) => erc721Owners[i]?.toLowerCase() === f.registrant!.toLowerCase()), 4);
  const live1155 = ctx.sample(wrapped.filter((f, i) => erc1155Owners[i]?.toLowerCase() === f.wrappedOwner!.toLowerCase()), 1);
  if (live721.length < 4 || live1155.length < 1) throw new Error(`sales: too few live names to sell (${live721.length} unwrapped, ${live1155.length} wrapped)`);
  const [ethListed, bidFor, bundleA, bundleB] = live721 as [NameFacts, NameFacts, NameFacts, NameFacts];
  const wrappedListed = live1155[0]!;

  const erc721 = (f: NameFacts): Item => ({ itemType: ERC721, token: registrar, identifier: BigInt(labelhash(f.labels[0]!)), amount: 1n });
  const erc1155 = (f: NameFacts): Item => ({ itemType: ERC1155, token: wrapper, identifier: BigInt(f.node), amount: 1n });
  const ethTo = (amount: bigint, recipient: Address): Received => ({ itemType: NATIVE, token: zeroAddress, identifier: 0n, amount, recipient });
  const dstTo = (amount: bigint, recipient: Address): Received => ({ itemType: ERC20, token, identifier: 0n, amount, recipient });
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
  const s1 = ethListed.registrant!;
  const b1 = buyerOtherThan(s1);
  const o1 = listing(s1, [erc721(ethListed)], [ethTo(parseEther("0.95"), s1), ethTo(parseEther("0.025"), MARKETPLACE_FEE_RECIPIENT), ethTo(parseEther("0.025"), ROYALTY_RECIPIENT)], b1);

  const s2 = wrappedListed.wrappedOwner!;
  const b2 = buyerOtherThan(s2);
  const o2 = listing(s2, [erc1155(wrappedListed)], [dstTo(parseEther("490"), s2), dstTo(parseEther("10"), MARKETPLACE_FEE_RECIPIENT)], b2);

  // An offer: the bidder offers the token and asks for the name (and the fee its holder pays out of the price).
  const s3 = bidFor.registrant!;
  const b3 = buyerOtherThan(s3);
  const o3: Order = {
    offerer: b3,
    offer: [{ itemType: ERC20, token, identifier: 0n, amount: parseEther("300") }],
    consideration: [{ ...erc721(bidFor), recipient: b3 }, dstTo(parseEther("6"), MARKETPLACE_FEE_RECIPIENT)],
    salt: salt++,
    fulfiller: s3,
    recipient: s3,
    value: 0n,
  };

  // A bundle of two names (from one holder when the scenario has one, else the second is moved to the first's holder).
  const s4 = bundleA.registrant!;
  const b4 = buyerOtherThan(s4);
  const o4 = listing(s4, [erc721(bundleA), erc721(bundleB)], [ethTo(parseEther("2"), s4)], b4);

  // The wrapped name's buyer sells it on for ETH.
  const b5 = buyerOtherThan(b2);
  const o5 = listing(b2, [erc1155(wrappedListed)], [ethTo(parseEther("1.5"), b2), ethTo(parseEther("0.05"), ROYALTY_RECIPIENT)], b5);

  const setup: Tx[] = [];
  if (bundleB.registrant!.toLowerCase() !== s4.toLowerCase()) {
    setup.push(call(bundleB.registrant!, registrar, real.BaseRegistrarImplementation.abi, "transferFrom", [bundleB.registrant!, s4, erc721(bundleB).identifier]));
  }
  const approvals = new Set<string>();
  const approve = (owner: Address, tokenContract: Address, abi: import("viem").Abi) => {
    const key = `${owner}|${tokenContract}`.toLowerCase();
    if (approvals.has(key)) return;
    approvals.add(key);
    setup.push(call(owner, tokenContract, abi, "setApprovalForAll", [seaport, true]));
  };
  approve(s1, registrar, real.BaseRegistrarImplementation.abi);
  approve(s2, wrapper, own.NameWrapper.abi);
  approve(s3, registrar, real.BaseRegistrarImplementation.abi);
  approve(s4, registrar, real.BaseRegistrarImplementation.abi);
  approve(b2, wrapper, own.NameWrapper.abi);
  for (const [who, amount] of [
    [b2, parseEther("500")],
    [b3, parseEther("300")],
  ] as const) {
    setup.push(call(chain.deployer, token, own.DevnetERC20.abi, "mint", [who, amount]));
  }
  for (const who of new Set([b2, b3, s3])) setup.push(call(who, token, own.DevnetERC20.abi, "approve", [seaport, 2n ** 255n]));
  for (const o of [o1, o2, o3, o4, o5]) setup.push(call(o.offerer, seaport, own.DevnetSeaport.abi, "validate", [o.offer, o.consideration, o.salt]));
  await chain.send(setup);

  const fill = (o: Order) => call(o.fulfiller, seaport, own.DevnetSeaport.abi, "fulfill", [o.offerer, o.offer, o.consideration, o.salt, o.recipient], o.value);
  const [r1, r2, r3, r4] = await chain.send([fill(o1), fill(o2), fill(o3), fill(o4)]);
  const [r5] = await chain.send([fill(o5)]);

  ethListed.registrant = b1;
  bidFor.registrant = b3;
  bundleA.registrant = b4;
  bundleB.registrant = b4;
  wrappedListed.wrappedOwner = b5;

  const lower = (a: Address) => a.toLowerCase() as Address;
  const fact = (f: NameFacts, item: Item, kind: NameSaleFact["kind"], seller: Address, buyer: Address, currency: "ETH" | "ERC20", price: bigint, proceeds: bigint, tx: Hex): NameSaleFact => ({
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
  ctx.log("root: 5 Seaport fills (4 name sales, 1 bundle)");
  return {
    sales: [
      fact(ethListed, erc721(ethListed), "listing", s1, b1, "ETH", parseEther("1"), parseEther("0.95"), r1!.transactionHash),
      fact(wrappedListed, erc1155(wrappedListed), "listing", s2, b2, "ERC20", parseEther("500"), parseEther("490"), r2!.transactionHash),
      fact(bidFor, erc721(bidFor), "offer", s3, b3, "ERC20", parseEther("300"), parseEther("294"), r3!.transactionHash),
      fact(wrappedListed, erc1155(wrappedListed), "listing", b2, b5, "ETH", parseEther("1.55"), parseEther("1.5"), r5!.transactionHash),
    ],
    notSales: [{ transactionHash: r4!.transactionHash, why: "a bundle of two names", names: [bundleA.name, bundleB.name] }],
    seaport: lower(seaport),
    saleToken: lower(token),
    feeRecipients: [MARKETPLACE_FEE_RECIPIENT, ROYALTY_RECIPIENT],
  };
}
