import { readFileSync } from "node:fs";
import {
  type Address,
  createPublicClient,
  decodeEventLog,
  type Hex,
  http,
  type PublicClient,
  parseAbi,
  toEventSelector,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SeaportAbi } from "../../abis";
import { scenarioOf } from "../../devnet/src/index";
import type { NameSalesScenario } from "../../devnet/src/scenario/model";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { type RunningIndexer, startIndexer, waitFor } from "../../harness/indexer-harness";
import type { DevnetManifest } from "../../src/namespaces/devnet-manifest";

/*
 * GET /api/name-sales on the devnet: the Seaport stand-in's fills of the scenario, compared with the scenario's
 * record and with the chain itself (receipts, balances, eth_call): every sale once with its token, parties, price and
 * seller proceeds; the bundle left out; newest first across pages; filters; bad input is a 400 with reasons.
 */

const ROOT = 31337;
const TokenEvents = parseAbi([
  "event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)",
  "event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)",
]);
const Erc20Transfer = parseAbi(["event Transfer(address indexed from, address indexed to, uint256 value)"]);
const TOKEN_MOVES = TokenEvents.map((e) => toEventSelector(e)) as Hex[];
const OwnerOf = parseAbi(["function ownerOf(uint256 id) view returns (address)"]);
const ORDER_FULFILLED = toEventSelector(SeaportAbi.find((i) => i.type === "event")!);

let env: DevnetWithLabels;
let manifest: DevnetManifest;
let sales: NameSalesScenario;
let indexer: RunningIndexer;
let client: PublicClient;

async function get(path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${indexer.url}${path}`);
  return { status: res.status, body: await res.json() };
}

async function allSales(query = "", limit = 100): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const { status, body } = await get(`/api/name-sales?limit=${limit}&page=${page}${query ? `&${query}` : ""}`);
    expect(status, JSON.stringify(body)).toBe(200);
    out.push(...body.nameSales);
    if (!body.pageContext.hasNext) return out;
  }
}

const lower = (a: string) => a.toLowerCase() as Address;

beforeAll(async () => {
  env = await startDevnetWithLabels({ seed: 5, names: 1 });
  manifest = env.devnet.manifest;
  sales = scenarioOf(manifest).nameSales;
  client = createPublicClient({ transport: http(manifest.chains[String(ROOT)]!.rpcUrl) });
  indexer = await startIndexer({
    manifestPath: env.devnet.manifestPath,
    labelsServiceUrl: env.labelsUrl,
    plugins: ["subgraph", "tokenscope"],
    database: "pglite",
  });
  try {
    await indexer.process.ready();
    // The resale is the scenario's last fill, a block after the bundle: once it is indexed, every fill is.
    const last = sales.sales.at(-1)!.transactionHash;
    let seen = "";
    await waitFor(
      async () => {
        const { status, body } = await get("/api/name-sales?limit=100");
        seen = `${status} ${body.pageContext?.totalRecords ?? ""}`;
        return status === 200 && body.nameSales.some((s: any) => s.transactionHash === last);
      },
      240_000,
      "the last sale to be indexed",
    ).catch((error) => {
      throw new Error(`${(error as Error).message} (last seen: ${seen})`);
    });
  } catch (error) {
    console.error(readFileSync(indexer.logFile, "utf8").slice(-4000));
    throw error;
  }
}, 600_000);

afterAll(async () => {
  await indexer?.stop();
  await env?.stop();
});

describe("name sales on the devnet", () => {
  it("lists each scenario sale once, as the scenario made it, and leaves the bundle out", async () => {
    const listed = await allSales();
    expect(listed.map((s) => s.transactionHash).sort()).toEqual(sales.sales.map((f) => f.transactionHash).sort());
    for (const f of sales.sales) {
      const s = listed.find((x) => x.transactionHash === f.transactionHash);
      const price = (amount: string) => ({ currency: f.currency, token: f.currencyToken, amount });
      expect(s).toMatchObject({
        domainId: f.node,
        name: f.name,
        token: {
          assetNamespace: f.assetNamespace,
          contract: { chainId: ROOT, address: f.contract },
          tokenId: f.tokenId,
        },
        seller: f.seller,
        buyer: f.buyer,
        price: price(f.price),
        sellerProceeds: price(f.sellerProceeds),
      });
    }
    for (const n of sales.notSales)
      expect(
        listed.some((s) => s.transactionHash === n.transactionHash),
        n.why,
      ).toBe(false);
  });

  it("agrees with the chain: the OrderFulfilled log, the token's move, the payments and the current holder", async () => {
    const listed = await allSales();
    const seaport = lower(manifest.datasources.ensroot!.contracts.Seaport!.address!);
    const all = await client.getLogs({ address: seaport, fromBlock: 0n, toBlock: "latest" });
    // Every fill the chain has is either a listed sale or a scenario non-sale: nothing was missed or invented.
    expect(all.filter((l) => l.topics[0] === ORDER_FULFILLED).length).toBe(sales.sales.length + sales.notSales.length);
    // Newest first: the first sale seen of a name is its latest.
    const lastSaleOf = new Map<string, any>();
    for (const s of listed) {
      const receipt = await client.getTransactionReceipt({ hash: s.transactionHash });
      const block = await client.getBlock({ blockNumber: receipt.blockNumber });
      const fill = receipt.logs.find((l) => l.logIndex === s.logIndex)!;
      expect(lower(fill.address)).toBe(seaport);
      expect(fill.topics[0]).toBe(ORDER_FULFILLED);
      const decoded = decodeEventLog({ abi: SeaportAbi, data: fill.data, topics: fill.topics });
      expect(s.orderHash).toBe(decoded.args.orderHash);
      expect(s.id).toBe(`${receipt.blockNumber}-${fill.logIndex}`); // the root chain's event id format (docs/api.md)
      expect(s.block).toEqual({ number: Number(receipt.blockNumber), timestamp: Number(block.timestamp) });

      // The name token left the seller for the buyer in this transaction.
      const moves = receipt.logs
        .filter((l) => lower(l.address) === s.token.contract.address && TOKEN_MOVES.includes(l.topics[0]!))
        .map(
          (l) => decodeEventLog({ abi: TokenEvents, data: l.data, topics: l.topics }).args as Record<string, unknown>,
        );
      const id = BigInt(s.token.tokenId);
      expect(
        moves.some(
          (m) =>
            lower(m.from as string) === s.seller && lower(m.to as string) === s.buyer && (m.tokenId ?? m.id) === id,
        ),
      ).toBe(true);

      // The price the buyer paid and what the seller kept.
      if (s.price.currency === "ERC20") {
        const transfers = receipt.logs
          .filter((l) => lower(l.address) === s.price.token && l.topics[0] === toEventSelector(Erc20Transfer[0]))
          .map((l) => decodeEventLog({ abi: Erc20Transfer, data: l.data, topics: l.topics }).args);
        const paidBy = (a: Address) => transfers.filter((t) => lower(t.from) === a).reduce((n, t) => n + t.value, 0n);
        const receivedBy = (a: Address) => transfers.filter((t) => lower(t.to) === a).reduce((n, t) => n + t.value, 0n);
        expect(paidBy(s.buyer).toString()).toBe(s.price.amount);
        expect((receivedBy(s.seller) - paidBy(s.seller)).toString()).toBe(s.sellerProceeds.amount);
      } else {
        // The buyer sent the price with the fill; the fee recipients (paid by nothing else) got the rest.
        const tx = await client.getTransaction({ hash: s.transactionHash });
        expect(lower(tx.from)).toBe(s.buyer);
        expect(tx.value.toString()).toBe(s.price.amount);
        let fees = 0n;
        for (const r of sales.feeRecipients) {
          fees +=
            (await client.getBalance({ address: r, blockNumber: receipt.blockNumber })) -
            (await client.getBalance({ address: r, blockNumber: receipt.blockNumber - 1n }));
        }
        expect((tx.value - fees).toString()).toBe(s.sellerProceeds.amount);
      }
      if (!lastSaleOf.has(s.domainId)) lastSaleOf.set(s.domainId, s);
    }
    // The newest sale's buyer still holds each name (nothing moves them after the scenario).
    for (const s of lastSaleOf.values()) {
      const owner = await client.readContract({
        address: s.token.contract.address,
        abi: OwnerOf,
        functionName: "ownerOf",
        args: [BigInt(s.token.tokenId)],
      });
      expect(lower(owner)).toBe(s.buyer);
    }
  });

  it("is newest first, and pages of any size add up to the whole list", async () => {
    const whole = await allSales();
    for (let i = 1; i < whole.length; i++) {
      const [a, b] = [whole[i - 1], whole[i]];
      const key = (s: any) => [s.block.timestamp, s.block.number, s.logIndex];
      const [ka, kb] = [key(a), key(b)];
      const order = ka[0] - kb[0] || ka[1] - kb[1] || ka[2] - kb[2];
      expect(order, `${a.id} before ${b.id}`).toBeGreaterThan(0);
    }
    for (const limit of [1, 2, 3]) expect((await allSales("", limit)).map((s) => s.id)).toEqual(whole.map((s) => s.id));
    const { body } = await get("/api/name-sales?limit=3&page=2");
    expect(body.pageContext).toEqual({
      page: 2,
      limit: 3,
      totalRecords: whole.length,
      totalPages: Math.ceil(whole.length / 3),
      hasNext: false,
      hasPrev: true,
    });
    expect(typeof body.accurateAsOf).toBe("number");
    const beyond = await get("/api/name-sales?limit=3&page=9");
    expect(beyond.status).toBe(200);
    expect(beyond.body.nameSales).toEqual([]);
  });

  it("filters by name or domainId, buyer, seller and time", async () => {
    const whole = await allSales();
    const resold = sales.sales.at(-1)!;
    const ofName = sales.sales
      .filter((f) => f.node === resold.node)
      .map((f) => f.transactionHash)
      .sort();
    expect(ofName.length).toBe(2);
    expect((await allSales(`name=${encodeURIComponent(resold.name)}`)).map((s) => s.transactionHash).sort()).toEqual(
      ofName,
    );
    expect(
      (await allSales(`domainId=${resold.node.toUpperCase().replace("0X", "0x")}`))
        .map((s) => s.transactionHash)
        .sort(),
    ).toEqual(ofName);
    for (const f of sales.sales) {
      const bySeller = sales.sales
        .filter((x) => x.seller === f.seller)
        .map((x) => x.transactionHash)
        .sort();
      expect((await allSales(`seller=${f.seller}`)).map((s) => s.transactionHash).sort()).toEqual(bySeller);
      const byBuyer = sales.sales
        .filter((x) => x.buyer === f.buyer)
        .map((x) => x.transactionHash)
        .sort();
      expect((await allSales(`buyer=${f.buyer}`)).map((s) => s.transactionHash).sort()).toEqual(byBuyer);
    }
    const t = whole[0].block.timestamp;
    expect((await allSales(`beginTimestamp=${t}`)).map((s) => s.id)).toEqual(
      whole.filter((s) => s.block.timestamp >= t).map((s) => s.id),
    );
    expect((await allSales(`endTimestamp=${t - 1}`)).map((s) => s.id)).toEqual(
      whole.filter((s) => s.block.timestamp <= t - 1).map((s) => s.id),
    );
    expect((await allSales("name=nobody-sold-this.eth")).length).toBe(0);
  });

  it.each([
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["page=0", "page"],
    ["page=two", "page"],
    ["name=Foo.eth", "name"],
    [`name=a.eth&domainId=0x${"00".repeat(32)}`, "domainId"],
    ["domainId=0x1234", "domainId"],
    ["buyer=0xnothex", "buyer"],
    ["seller=0x1234", "seller"],
    ["beginTimestamp=-1", "beginTimestamp"],
    ["beginTimestamp=20&endTimestamp=10", "endTimestamp"],
  ])("answers 400 Invalid Input for %s", async (query, field) => {
    const { status, body } = await get(`/api/name-sales?${query}`);
    expect(status).toBe(400);
    expect(body.message).toBe("Invalid Input");
    expect(body.details.map((d: { field: string }) => d.field)).toContain(field);
  });
});
