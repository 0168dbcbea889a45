import { Hono } from "hono";
import { type Hex, namehash } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nameSalesRoutes } from "../../src/api/name-sales/route";
import type { IndexingSnapshot } from "../../src/api/shared/indexing-snapshot";
import { domainRow, managedNameByNode, NAME_WRAPPER, snapshot, USER } from "../registrars/fixture";
import { createTestSchema, insertRows, type TestSchema } from "../registrars/pg";

/*
 * /api/name-sales over a real PostgreSQL schema: the tie-breaks of "newest first" (same timestamp, same block), the
 * name from the domain table or null, ETH and ERC-20 prices, the 503 before any status. The devnet test
 * (test/e2e/name-sales.system.test.ts) covers the indexing side against a chain.
 */

const BUYER = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
const WETH = "0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2";
const known = namehash("known.eth") as Hex;
const unknown = `0x${"77".repeat(32)}` as Hex;

const sale = (blockNumber: number, timestamp: number, logIndex: number, domainId: Hex, currency: "ETH" | "ERC20") => ({
  id: `${blockNumber}-${logIndex}`,
  chain_id: 1,
  order_hash: `0x${"ab".repeat(32)}`,
  domain_id: domainId,
  contract: NAME_WRAPPER,
  token_id: domainId,
  asset_namespace: "erc1155",
  seller: USER,
  buyer: BUYER,
  currency,
  currency_token: currency === "ETH" ? null : WETH,
  price: "1000",
  seller_proceeds: "975",
  block_number: blockNumber,
  block_timestamp: timestamp,
  log_index: logIndex,
  transaction_hash: `0x${blockNumber.toString(16).padStart(64, "0")}`,
});

// Newest first: block 12 (t=200), then at t=150 block 11's logs 10 and 3, block 10, block 9. Numbers, not the ids'
// text ("9-1" > "10-50", "11-3" > "11-10"), decide.
const ROWS = [
  sale(9, 150, 1, known, "ETH"),
  sale(11, 150, 3, unknown, "ERC20"),
  sale(10, 150, 50, known, "ETH"),
  sale(12, 200, 0, known, "ERC20"),
  sale(11, 150, 10, known, "ETH"),
];
const EXPECTED_ORDER = ["12-0", "11-10", "11-3", "10-50", "9-1"];

let s: TestSchema;
let current: IndexingSnapshot | undefined = snapshot();
let app: Hono;

beforeAll(async () => {
  s = await createTestSchema("name_sales_route");
  await insertRows(s, "name_sale", ROWS);
  await insertRows(s, "domain", [domainRow(known, "known.eth")]);
  app = new Hono().route(
    "/api/name-sales",
    nameSalesRoutes({ db: s.db, indexingStatus: { snapshot: async () => current }, managedNameByNode }),
  );
});

afterAll(async () => {
  await s?.drop();
});

const get = async (query = "") => {
  const res = await app.request(`/api/name-sales${query}`);
  return { status: res.status, body: (await res.json()) as any };
};

describe("GET /api/name-sales", () => {
  it("is newest first with block number and log index breaking ties, on every page", async () => {
    expect((await get()).body.nameSales.map((x: any) => x.id)).toEqual(EXPECTED_ORDER);
    const pages = [];
    for (let page = 1; page <= 3; page++)
      pages.push(...(await get(`?limit=2&page=${page}`)).body.nameSales.map((x: any) => x.id));
    expect(pages).toEqual(EXPECTED_ORDER);
  });

  it("names a sale from the domain table, else null, and prices it in ETH or the ERC-20", async () => {
    const { body } = await get();
    expect(body.nameSales[0]).toEqual({
      id: "12-0",
      orderHash: `0x${"ab".repeat(32)}`,
      domainId: known,
      name: "known.eth",
      token: { assetNamespace: "erc1155", contract: { chainId: 1, address: NAME_WRAPPER }, tokenId: known },
      seller: USER,
      buyer: BUYER,
      price: { currency: "ERC20", token: WETH, amount: "1000" },
      sellerProceeds: { currency: "ERC20", token: WETH, amount: "975" },
      block: { number: 12, timestamp: 200 },
      transactionHash: `0x${(12).toString(16).padStart(64, "0")}`,
      logIndex: 0,
    });
    expect(body.nameSales[1].price).toEqual({ currency: "ETH", token: null, amount: "1000" });
    expect(body.nameSales[2]).toMatchObject({ domainId: unknown, name: null });
    expect(body.accurateAsOf).toBe(1_700_000_000);
  });

  it("filters by name, by time and by parties", async () => {
    expect((await get("?name=known.eth")).body.pageContext.totalRecords).toBe(4);
    expect((await get(`?domainId=${unknown}`)).body.nameSales.map((x: any) => x.id)).toEqual(["11-3"]);
    expect((await get("?beginTimestamp=150&endTimestamp=150")).body.nameSales.map((x: any) => x.id)).toEqual([
      "11-10",
      "11-3",
      "10-50",
      "9-1",
    ]);
    expect(
      (await get(`?seller=${USER.toUpperCase().replace("0X", "0x")}&buyer=${BUYER}`)).body.pageContext.totalRecords,
    ).toBe(5);
    expect((await get(`?buyer=${USER}`)).body.nameSales).toEqual([]);
  });

  it("answers 503 before the indexer has any status, and 400 before that for bad input", async () => {
    current = undefined;
    try {
      const { status, body } = await get();
      expect(status).toBe(503);
      expect(body).toMatchObject({ responseCode: "error", error: { message: "Name sales are not available yet" } });
      expect((await get("?limit=0")).status).toBe(400);
    } finally {
      current = snapshot();
    }
  });
});
