import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nameTokensRoutes } from "../../src/api/name-tokens/route";
import { registrarActionsRoutes } from "../../src/api/registrar-actions/route";
import type { IndexingSnapshot } from "../../src/api/shared/indexing-snapshot";
import {
  BASE_NODE,
  BASE_REGISTRAR,
  ETH_NODE,
  ETH_REGISTRAR,
  type ExpectedAction,
  HIGH_BYTES_REFERRER,
  labelhash,
  managedNameByNode,
  NAME_WRAPPER,
  newestFirst,
  REFERRER,
  registrarFixture,
  snapshot,
  tokensFixture,
  USER,
  ZERO,
  ZERO32,
} from "./fixture";
import { createTestSchema, insertRows, type TestSchema } from "./pg";

/* The two routes over a real PostgreSQL schema seeded with a fixture; requests through Hono's app.request(). */

let s: TestSchema;
let expected: ExpectedAction[];
let tokens: ReturnType<typeof tokensFixture>;
let currentSnapshot: IndexingSnapshot | undefined = snapshot();
let app: Hono;

beforeAll(async () => {
  s = await createTestSchema("registrars_routes");
  const fixture = registrarFixture();
  expected = [...fixture.actions].sort(newestFirst);
  tokens = tokensFixture();
  for (const [table, rows] of Object.entries(fixture.rows)) await insertRows(s, table, rows);
  for (const [table, rows] of Object.entries(tokens.rows)) await insertRows(s, table, rows);
  const indexingStatus = { snapshot: async () => currentSnapshot };
  app = new Hono()
    .route("/api/registrar-actions", registrarActionsRoutes({ db: s.db, indexingStatus, managedNameByNode }))
    .route(
      "/api/name-tokens",
      nameTokensRoutes({
        db: s.db,
        indexingStatus,
        managedNameByNode,
        nameWrappers: [{ chainId: 1, address: NAME_WRAPPER }],
        indexedParents: ["eth", "base.eth"],
      }),
    );
});

afterAll(async () => {
  await s?.drop();
});

async function get(path: string): Promise<{ status: number; body: any }> {
  const res = await app.request(path);
  return { status: res.status, body: await res.json() };
}

const idsOf = (body: any): string[] => body.registrarActions.map((x: any) => x.action.id);

async function allPages(path: string, limit: number): Promise<{ ids: string[]; pages: any[] }> {
  const ids: string[] = [];
  const pages: any[] = [];
  for (let page = 1; ; page++) {
    const sep = path.includes("?") ? "&" : "?";
    const { status, body } = await get(`${path}${sep}limit=${limit}&page=${page}`);
    expect(status).toBe(200);
    pages.push(body.pageContext);
    ids.push(...idsOf(body));
    if (!body.pageContext.hasNext) break;
  }
  return { ids, pages };
}

describe("GET /api/registrar-actions", () => {
  it("returns the newest 25 by default, with page context and accurateAsOf", async () => {
    const { status, body } = await get("/api/registrar-actions");
    expect(status).toBe(200);
    expect(body.responseCode).toBe("ok");
    expect(idsOf(body)).toEqual(expected.slice(0, 25).map((a) => a.id));
    expect(body.pageContext).toEqual({
      page: 1,
      limit: 25,
      totalRecords: 62,
      totalPages: 3,
      hasNext: true,
      hasPrev: false,
    });
    expect(body.accurateAsOf).toBe(1_700_000_000);
  });

  it("breaks ties of timestamp, block and log index by id, descending", async () => {
    const { body } = await get("/api/registrar-actions?limit=2");
    // two actions share timestamp 2000, block 500 and log index 1 on chains 8453 and 1
    expect(idsOf(body)).toEqual(["500-1-8453", "500-1"]);
  });

  it("pages through everything without duplicates or gaps, for every page size", async () => {
    for (const limit of [1, 7, 25, 61, 62, 100]) {
      const { ids, pages } = await allPages("/api/registrar-actions", limit);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(expected.map((a) => a.id));
      expect(pages).toHaveLength(Math.ceil(62 / limit));
      expect(pages.at(-1)).toMatchObject({ hasNext: false, totalPages: Math.ceil(62 / limit), totalRecords: 62 });
    }
  });

  it("returns an empty page past the end", async () => {
    const { status, body } = await get("/api/registrar-actions?page=99");
    expect(status).toBe(200);
    expect(body.registrarActions).toEqual([]);
    expect(body.pageContext).toMatchObject({ page: 99, totalRecords: 62, hasNext: false, hasPrev: true });
  });

  it("serializes an action completely", async () => {
    const { body } = await get("/api/registrar-actions?limit=100");
    const i = 10; // chain 1, priced, name10 (named by its domain row), no referral
    const a = expected.find((x) => x.id === `${100 + Math.floor(i / 2)}-5`)!;
    const item = body.registrarActions.find((x: any) => x.action.id === a.id);
    expect(item).toEqual({
      action: {
        id: a.id,
        type: "registration",
        incrementalDuration: 31_536_000 + i,
        registrant: USER,
        registrationLifecycle: {
          subregistry: { subregistryId: { chainId: 1, address: ETH_REGISTRAR }, node: ETH_NODE },
          node: a.node,
          expiresAt: 1_900_000_010,
        },
        pricing: {
          baseCost: { currency: "ETH", amount: String(1_000_000 + i) },
          premium: { currency: "ETH", amount: "0" },
          total: { currency: "ETH", amount: String(1_000_000 + i) },
        },
        referral: { encodedReferrer: `0x${"0".repeat(24)}${REFERRER.slice(2)}`, decodedReferrer: REFERRER },
        block: { number: a.blockNumber, timestamp: a.timestamp },
        transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        eventIds: [a.id, `${a.blockNumber}-6`],
      },
      name: "name10-fromdomain.eth",
    });
  });

  it("names actions from the domain, else the controller's label, else the encoded labelhash", async () => {
    const { body } = await get("/api/registrar-actions?limit=100");
    const names = new Map(body.registrarActions.map((x: any) => [x.action.registrationLifecycle.node, x.name]));
    for (const a of expected) {
      const n = Number(a.label.slice(4));
      const parent = a.parentNode === ETH_NODE ? "eth" : "base.eth";
      const want =
        a.chainId === 1 && n >= 10 && n < 15
          ? `${a.label}-fromdomain.eth`
          : n < 10
            ? `${a.label}.${parent}`
            : `[${labelhash(a.label).slice(2)}].${parent}`;
      expect(names.get(a.node)).toBe(want);
    }
  });

  it("gives null pricing and null referral as all-null objects", async () => {
    const { body } = await get("/api/registrar-actions?limit=100");
    const unpriced = body.registrarActions.find(
      (x: any) => x.action.registrationLifecycle.subregistry.node === BASE_NODE,
    );
    expect(unpriced.action.pricing).toEqual({ baseCost: null, premium: null, total: null });
    const unreferred = body.registrarActions.find(
      (x: any) => x.action.id === expected.find((a) => a.encodedReferrer === null)!.id,
    );
    expect(unreferred.action.referral).toEqual({ encodedReferrer: null, decodedReferrer: null });
  });

  it("filters withReferral: a non-zero encoded referrer, including one that decodes to the zero address", async () => {
    const want = expected.filter((a) => a.encodedReferrer !== null && a.encodedReferrer !== ZERO32);
    const { ids, pages } = await allPages("/api/registrar-actions?withReferral=true", 5);
    expect(ids).toEqual(want.map((a) => a.id));
    expect(pages[0].totalRecords).toBe(want.length);
    expect(want.some((a) => a.encodedReferrer === HIGH_BYTES_REFERRER)).toBe(true);
    const { body } = await get("/api/registrar-actions?withReferral=false&limit=100");
    expect(body.pageContext.totalRecords).toBe(62);
  });

  it("filters by decodedReferrer (any case), including the zero address of undecodable referrers", async () => {
    const { ids } = await allPages(
      `/api/registrar-actions?decodedReferrer=${REFERRER.toUpperCase().replace("0X", "0x")}`,
      4,
    );
    expect(ids).toEqual(expected.filter((a) => a.decodedReferrer === REFERRER).map((a) => a.id));
    const zero = await allPages(`/api/registrar-actions?decodedReferrer=${ZERO}`, 100);
    expect(zero.ids).toEqual(expected.filter((a) => a.decodedReferrer === ZERO).map((a) => a.id));
  });

  it("filters by an inclusive timestamp range", async () => {
    const { ids } = await allPages("/api/registrar-actions?beginTimestamp=1020&endTimestamp=1050", 3);
    expect(ids).toEqual(expected.filter((a) => a.timestamp >= 1020 && a.timestamp <= 1050).map((a) => a.id));
    expect(ids.length).toBe(16);
    const exact = await allPages("/api/registrar-actions?beginTimestamp=2000&endTimestamp=2000", 10);
    expect(exact.ids).toEqual(["500-1-8453", "500-1"]);
  });

  it("combines filters", async () => {
    const { ids } = await allPages(`/api/registrar-actions/${ETH_NODE}?withReferral=true&beginTimestamp=1050`, 2);
    expect(ids).toEqual(
      expected
        .filter(
          (a) =>
            a.parentNode === ETH_NODE &&
            a.encodedReferrer !== null &&
            a.encodedReferrer !== ZERO32 &&
            a.timestamp >= 1050,
        )
        .map((a) => a.id),
    );
  });
});

describe("GET /api/registrar-actions/:parentNode", () => {
  it("returns only that subregistry's actions, paged like the full list", async () => {
    for (const node of [ETH_NODE, BASE_NODE]) {
      const want = expected.filter((a) => a.parentNode === node).map((a) => a.id);
      const { ids, pages } = await allPages(`/api/registrar-actions/${node}`, 6);
      expect(ids).toEqual(want);
      expect(pages[0].totalRecords).toBe(want.length);
    }
  });

  it("accepts an uppercase node", async () => {
    const { status, body } = await get(`/api/registrar-actions/0x${BASE_NODE.slice(2).toUpperCase()}?limit=100`);
    expect(status).toBe(200);
    expect(body.pageContext.totalRecords).toBe(expected.filter((a) => a.parentNode === BASE_NODE).length);
  });

  it("is empty for a node no subregistry manages", async () => {
    const { status, body } = await get(`/api/registrar-actions/0x${"12".repeat(32)}`);
    expect(status).toBe(200);
    expect(body.registrarActions).toEqual([]);
    expect(body.pageContext).toMatchObject({ totalRecords: 0, totalPages: 1, hasNext: false });
  });
});

describe("registrar actions: bad input is a 400 with field errors", () => {
  it.each([
    ["/api/registrar-actions/0x1234", ["parentNode"]],
    ["/api/registrar-actions/eth", ["parentNode"]],
    ["/api/registrar-actions?limit=0", ["limit"]],
    ["/api/registrar-actions?limit=101", ["limit"]],
    ["/api/registrar-actions?limit=2.5", ["limit"]],
    ["/api/registrar-actions?limit=ten", ["limit"]],
    ["/api/registrar-actions?page=0", ["page"]],
    ["/api/registrar-actions?page=-2", ["page"]],
    ["/api/registrar-actions?withReferral=yes", ["withReferral"]],
    ["/api/registrar-actions?decodedReferrer=0x1234", ["decodedReferrer"]],
    ["/api/registrar-actions?beginTimestamp=20&endTimestamp=10", ["endTimestamp"]],
    ["/api/registrar-actions?beginTimestamp=soon", ["beginTimestamp"]],
    ["/api/registrar-actions/0x12?limit=0", ["parentNode", "limit"]],
  ])("%s", async (path, fields) => {
    const { status, body } = await get(path);
    expect(status).toBe(400);
    expect(body.message).toBe("Invalid Input");
    expect(body.details.map((d: any) => d.field)).toEqual(fields);
    for (const d of body.details) expect(d.message).toEqual(expect.any(String));
  });
});

describe("registrar actions before indexing has a status", () => {
  it("answers 503", async () => {
    currentSnapshot = undefined;
    try {
      const { status, body } = await get("/api/registrar-actions");
      expect(status).toBe(503);
      expect(body.responseCode).toBe("error");
    } finally {
      currentSnapshot = snapshot();
    }
  });
});

describe("GET /api/name-tokens", () => {
  it("returns both tokens of a wrapped .eth name: the ERC-721 held by the wrapper and the ERC-1155", async () => {
    const { status, body } = await get("/api/name-tokens?name=wrapped.eth");
    expect(status).toBe(200);
    expect(body).toEqual({
      responseCode: "ok",
      registeredNameTokens: {
        domainId: tokens.nodes.wrapped,
        name: "wrapped.eth",
        tokens: [
          {
            token: {
              assetNamespace: "erc721",
              contract: { chainId: 1, address: ETH_REGISTRAR },
              tokenId: labelhash("wrapped"),
            },
            ownership: { ownershipType: "namewrapper", owner: { chainId: 1, address: NAME_WRAPPER } },
            mintStatus: "minted",
          },
          {
            token: {
              assetNamespace: "erc1155",
              contract: { chainId: 1, address: NAME_WRAPPER },
              tokenId: tokens.nodes.wrapped,
            },
            ownership: { ownershipType: "fully-onchain", owner: { chainId: 1, address: USER } },
            mintStatus: "minted",
          },
        ],
        // the registrar's expiry (lifecycle), not the domain's expiry with grace period
        expiresAt: 1_800_000_000,
        accurateAsOf: 1_700_000_000,
      },
    });
  });

  it("finds the same tokens by domainId, naming them from the domain table", async () => {
    const { status, body } = await get(`/api/name-tokens?domainId=${tokens.nodes.wrapped}`);
    expect(status).toBe(200);
    expect(body.registeredNameTokens.name).toBe("wrapped.eth");
    expect(body.registeredNameTokens.tokens).toHaveLength(2);
  });

  it("names by the lifecycle when no domain row exists (encoded when no label is known)", async () => {
    const { body } = await get(`/api/name-tokens?domainId=${tokens.nodes.plain}`);
    expect(body.registeredNameTokens.name).toBe(`[${labelhash("plain").slice(2)}].eth`);
    const jesse = await get(`/api/name-tokens?domainId=${tokens.nodes.jesse}`);
    expect(jesse.body.registeredNameTokens.name).toBe("jesse.base.eth");
  });

  it("shows an unwrapped name's ERC-1155 as burned and its ERC-721 as fully onchain", async () => {
    const { body } = await get("/api/name-tokens?name=plain.eth");
    expect(
      body.registeredNameTokens.tokens.map((t: any) => [
        t.token.assetNamespace,
        t.ownership.ownershipType,
        t.mintStatus,
      ]),
    ).toEqual([
      ["erc721", "fully-onchain", "minted"],
      ["erc1155", "burned", "burned"],
    ]);
  });

  it("shows a burned token", async () => {
    const { body } = await get("/api/name-tokens?name=gone.eth");
    expect(body.registeredNameTokens.tokens).toEqual([
      {
        token: {
          assetNamespace: "erc721",
          contract: { chainId: 1, address: ETH_REGISTRAR },
          tokenId: labelhash("gone"),
        },
        ownership: { ownershipType: "burned", owner: { chainId: 1, address: ZERO } },
        mintStatus: "burned",
      },
    ]);
  });

  it("gives an L2 name's token the unknown ownership type", async () => {
    const { body } = await get("/api/name-tokens?name=jesse.base.eth");
    expect(body.registeredNameTokens.tokens).toEqual([
      {
        token: {
          assetNamespace: "erc721",
          contract: { chainId: 8453, address: BASE_REGISTRAR },
          tokenId: labelhash("jesse"),
        },
        ownership: { ownershipType: "unknown", owner: { chainId: 8453, address: USER } },
        mintStatus: "minted",
      },
    ]);
  });

  it("404s a name with no tokens, explaining a parent that is not indexed", async () => {
    const unknown = await get("/api/name-tokens?name=nobody.eth");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      responseCode: "error",
      errorCode: "name-tokens-not-indexed",
      error: { message: "No indexed name tokens found", details: 'No tokens are indexed for name "nobody.eth".' },
    });
    const foreign = await get("/api/name-tokens?name=example.com");
    expect(foreign.status).toBe(404);
    expect(foreign.body.errorCode).toBe("name-tokens-not-indexed");
    expect(foreign.body.error.details).toMatch(/names under "eth", "base.eth"/);
    const byId = await get(`/api/name-tokens?domainId=0x${"00".repeat(31)}01`);
    expect(byId.status).toBe(404);
  });

  it.each([
    ["/api/name-tokens", "(query)"],
    [`/api/name-tokens?name=wrapped.eth&domainId=0x${"ab".repeat(32)}`, "(query)"],
    ["/api/name-tokens?name=Wrapped.eth", "name"],
    ["/api/name-tokens?name=a..eth", "name"],
    ["/api/name-tokens?domainId=0x1234", "domainId"],
  ])("400s %s", async (path, field) => {
    const { status, body } = await get(path);
    expect(status).toBe(400);
    expect(body).toMatchObject({
      responseCode: "error",
      errorCode: "invalid-input",
      error: { message: "Invalid Input" },
      message: "Invalid Input",
    });
    expect(body.error.details.map((d: any) => d.field)).toEqual([field]);
    expect(body.details).toEqual(body.error.details);
  });

  it.each([["omnichain-backfill"], ["omnichain-unstarted"], [undefined]] as const)(
    "503s while the status is %s",
    async (status) => {
      currentSnapshot = status ? snapshot(status) : undefined;
      try {
        const res = await get("/api/name-tokens?name=wrapped.eth");
        expect(res.status).toBe(503);
        expect(res.body).toMatchObject({ responseCode: "error", errorCode: "unsupported-indexing-status" });
        expect(res.body.error.details).toContain(status ?? "no indexing status");
      } finally {
        currentSnapshot = snapshot();
      }
    },
  );

  it("serves when indexing is completed", async () => {
    currentSnapshot = snapshot("omnichain-completed", 42);
    try {
      const res = await get("/api/name-tokens?name=wrapped.eth");
      expect(res.status).toBe(200);
      expect(res.body.registeredNameTokens.accurateAsOf).toBe(42);
    } finally {
      currentSnapshot = snapshot();
    }
  });
});
