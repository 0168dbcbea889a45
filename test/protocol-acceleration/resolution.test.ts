import { type Address, type Hex, namehash } from "viem";
import { describe, expect, it } from "vitest";
import { resolutionRoutes } from "../../src/api/resolution/route";
import type { IndexingSnapshot } from "../../src/api/shared/indexing-snapshot";
import { IndexBackend } from "../../src/api/shared/resolution/index-backend";
import type { RecordsAnswer, RecordsRequest } from "../../src/api/shared/resolution/records";
import { NotInIndex, Resolution, type ResolutionBackend } from "../../src/api/shared/resolution/resolve";
import type { RegistrySource } from "../../src/api/shared/resolution/routing";
import { registryNodeId } from "../../src/lib/resolution-ids";
import { mainnetNamespace } from "../../src/namespaces/mainnet";

/*
 * The resolution algorithm over a fake backend (ENSIP-10 wildcard, ENSIP-19 primary names), and the routes'
 * input validation and index/onchain choice through app.request().
 */

const ALICE = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8" as Address;
const PUBLIC = "0x1111111111111111111111111111111111111111" as Address;
const EXTENDED = "0x2222222222222222222222222222222222222222" as Address;

/** Resolvers by (chain, node); records by node; reverse names by `<address>-<coinType>`. */
class FakeBackend implements ResolutionBackend {
  resolvers = new Map<string, Address>();
  records_ = new Map<Hex, { name?: string; addresses?: Record<string, string>; texts?: Record<string, string> }>();
  reverse = new Map<string, string>();
  calls: { node: Hex; extendedName?: string }[] = [];

  setResolver(chainId: number, name: string, resolver: Address) {
    this.resolvers.set(`${chainId}-${namehash(name)}`, resolver);
  }
  async findResolver(source: RegistrySource, ancestors: { node: Hex }[]) {
    const index = ancestors.findIndex((a) => this.resolvers.has(`${source.chainId}-${a.node}`));
    return index < 0
      ? undefined
      : { resolver: this.resolvers.get(`${source.chainId}-${ancestors[index].node}`)!, index };
  }
  async isExtendedResolver(_chainId: number, resolver: Address) {
    return resolver === EXTENDED;
  }
  async records(
    _c: number,
    _r: Address,
    node: Hex,
    request: RecordsRequest,
    extendedName?: string,
  ): Promise<RecordsAnswer> {
    this.calls.push({ node, ...(extendedName ? { extendedName } : {}) });
    const r = this.records_.get(node) ?? {};
    return {
      ...(request.name ? { name: r.name ?? null } : {}),
      ...(request.coinTypes.length
        ? { addresses: Object.fromEntries(request.coinTypes.map((c) => [`${c}`, r.addresses?.[`${c}`] ?? null])) }
        : {}),
      ...(request.texts.length
        ? { texts: Object.fromEntries(request.texts.map((k) => [k, r.texts?.[k] ?? null])) }
        : {}),
    };
  }
  async reverseName(address: Address, coinType: bigint) {
    return this.reverse.get(`${address}-${coinType}`) ?? null;
  }
  // Mainnet has no ENSv2: never asked (test/ensv2/resolution-rules.test.ts covers ENSv2's walk).
  async findEnsv2Resolver(): Promise<undefined> {
    throw new Error("no ENSv2 in this namespace");
  }
  async ensv2Records(): Promise<RecordsAnswer> {
    throw new Error("no ENSv2 in this namespace");
  }
}

const ALL = { coinTypes: [60n], texts: ["url"], name: true };

describe("forward resolution (ENSIP-10)", () => {
  it("reads the name's own resolver", async () => {
    const b = new FakeBackend();
    b.setResolver(1, "alice.eth", PUBLIC);
    b.records_.set(namehash("alice.eth"), { addresses: { 60: ALICE }, texts: { url: "https://a" } });
    expect(await new Resolution(mainnetNamespace, b).records("alice.eth", ALL)).toEqual({
      name: null,
      addresses: { 60: ALICE },
      texts: { url: "https://a" },
    });
  });

  it("gives nulls when an ancestor's resolver is not extended, and asks an extended one through resolve()", async () => {
    const b = new FakeBackend();
    b.setResolver(1, "alice.eth", PUBLIC);
    const r = new Resolution(mainnetNamespace, b);
    expect(await r.records("sub.alice.eth", ALL)).toEqual({
      name: null,
      addresses: { 60: null },
      texts: { url: null },
    });
    expect(b.calls).toEqual([]);
    b.setResolver(1, "wild.eth", EXTENDED);
    b.records_.set(namehash("x.y.wild.eth"), { addresses: { 60: ALICE } });
    expect((await r.records("x.y.wild.eth", ALL)).addresses).toEqual({ 60: ALICE });
    expect(b.calls).toEqual([{ node: namehash("x.y.wild.eth"), extendedName: "x.y.wild.eth" }]);
  });

  it("resolves *.base.eth on Base, 3DNS names on the 3DNS token's resolver, unknown names to nulls", async () => {
    const b = new FakeBackend();
    b.setResolver(8453, "jesse.base.eth", PUBLIC);
    b.setResolver(1, "jesse.base.eth", EXTENDED); // never consulted: base.eth subnames live on Base
    b.records_.set(namehash("jesse.base.eth"), { name: "jesse.base.eth" });
    b.setResolver(10, "shop.xyz", PUBLIC);
    b.records_.set(namehash("shop.xyz"), { texts: { url: "https://shop" } });
    const r = new Resolution(mainnetNamespace, b);
    expect((await r.records("jesse.base.eth", ALL)).name).toBe("jesse.base.eth");
    expect(b.calls).toEqual([{ node: namehash("jesse.base.eth") }]);
    expect((await r.records("shop.xyz", ALL)).texts).toEqual({ url: "https://shop" });
    expect(await r.records("nobody.eth", { coinTypes: [], texts: [], name: true })).toEqual({ name: null });
    expect(await r.records("nobody.eth", { coinTypes: [], texts: [], name: false })).toEqual({});
  });
});

describe("primary names (ENSIP-19)", () => {
  const setup = () => {
    const b = new FakeBackend();
    b.setResolver(1, `${ALICE.slice(2)}.addr.reverse`, PUBLIC);
    for (const n of ["legacy.eth", "default.eth", "onbase.base.eth"])
      b.setResolver(n.endsWith("base.eth") ? 8453 : 1, n, PUBLIC);
    b.records_.set(namehash("legacy.eth"), { addresses: { 60: ALICE } });
    b.records_.set(namehash("default.eth"), { addresses: { 60: ALICE, 2147492101: ALICE } });
    b.records_.set(namehash("onbase.base.eth"), { addresses: { 60: ALICE } });
    return { b, r: new Resolution(mainnetNamespace, b) };
  };
  const legacyNode = namehash(`${ALICE.slice(2)}.addr.reverse`);

  it("on mainnet takes the addr.reverse name before the default one", async () => {
    const { b, r } = setup();
    b.reverse.set(`${ALICE}-2147483648`, "default.eth");
    expect(await r.primaryName(ALICE, 1)).toBe("default.eth");
    b.records_.set(legacyNode, { name: "legacy.eth" });
    expect(await r.primaryName(ALICE, 1)).toBe("legacy.eth");
  });

  it("on an L2 takes the chain's reverse name, else the default, verified with the chain's coin type", async () => {
    const { b, r } = setup();
    b.reverse.set(`${ALICE}-2147483648`, "default.eth");
    expect(await r.primaryName(ALICE, 8453)).toBe("default.eth"); // default.eth has Base's coin type
    b.reverse.set(`${ALICE}-2147492101`, "onbase.base.eth");
    expect(await r.primaryName(ALICE, 8453)).toBeNull(); // onbase.base.eth has only an ETH address
    b.records_.set(namehash("onbase.base.eth"), { addresses: { 2147492101: ALICE } });
    expect(await r.primaryName(ALICE, 8453)).toBe("onbase.base.eth");
    expect(await r.primaryName(ALICE, 59144)).toBeNull(); // default.eth has no Linea address
  });

  it("ignores names that do not resolve back or are not normalized", async () => {
    const { b, r } = setup();
    b.records_.set(legacyNode, { name: "Legacy.eth" });
    expect(await r.primaryName(ALICE, 1)).toBeNull();
    b.records_.set(legacyNode, { name: "nobody.eth" });
    expect(await r.primaryName(ALICE, 1)).toBeNull();
  });
});

describe("routes", () => {
  const snapshot = (cursor: number) =>
    ({
      snapshotTime: cursor,
      slowestChainIndexingCursor: cursor,
      omnichainSnapshot: {},
    }) as unknown as IndexingSnapshot;
  const app = (opts: { cursor?: number; accelerationIndexed?: boolean; execute?: () => Promise<unknown> }) =>
    resolutionRoutes({
      db: { execute: opts.execute ?? (async () => []) },
      indexingStatus: { snapshot: async () => (opts.cursor === undefined ? undefined : snapshot(opts.cursor)) },
      namespace: mainnetNamespace,
      // Nothing listens here: the onchain path fails fast with a transport error (503).
      rpcUrls: new Map([1, 8453, 59144, 10].map((id) => [id, "http://127.0.0.1:9/"])),
      accelerationIndexed: opts.accelerationIndexed ?? true,
      indexedChainIds: [1, 10, 8453, 59144],
      nowSeconds: () => 1_000_000,
    });
  const get = async (a: ReturnType<typeof app>, path: string) => {
    const res = await a.request(path);
    return { status: res.status, body: (await res.json()) as any };
  };

  it("rejects bad input with every reason", async () => {
    const a = app({ cursor: 1_000_000 });
    const cases: [string, string[]][] = [
      ["/records/Alice.eth", ['name must be ENSIP-15 normalized; its normalized form is "alice.eth"']],
      ["/records/a..eth", ["name is not a valid ENS name"]],
      ["/records/alice.eth?addresses=60,-1,x", ["each coin type must be a non-negative integer"]],
      [`/records/alice.eth?addresses=${2n ** 256n}`, ["coin types are uint256"]],
      ["/records/alice.eth?texts=a,,b", ["text keys must not be empty"]],
      [`/records/alice.eth?texts=${Array.from({ length: 21 }, (_, i) => `k${i}`).join(",")}`, ["at most 20 text keys"]],
      ["/records/alice.eth?name=yes&accelerate=no", ["name must be true or false", "accelerate must be true or false"]],
      ["/primary-name/0x123/1", ["address must be 0x followed by 40 hex digits"]],
      [`/primary-name/${ALICE}/5`, ["chain id must be one of the indexed chains: 1, 10, 8453, 59144"]],
      [`/primary-name/${ALICE}/1.5`, ["chain id must be a non-negative integer"]],
      [`/primary-names/${ALICE}?chainIds=1,abc`, ["chain id must be a non-negative integer"]],
      ["/records/alice.eth?trace=yes", ["trace must be true or false"]],
      [`/primary-name/${ALICE}/1?trace=1`, ["trace must be true or false"]],
    ];
    for (const [path, reasons] of cases) {
      const { status, body } = await get(a, path);
      expect(status, path).toBe(400);
      expect(body.message).toBe("Invalid Input");
      const messages = body.details.map((d: { message: string }) => d.message).join(" | ");
      for (const reason of reasons) expect(messages, path).toContain(reason);
    }
  });

  it("answers from the index while it is realtime, and says so", async () => {
    const a = app({ cursor: 1_000_000 - 60 });
    expect(await get(a, "/records/alice.eth?addresses=60&texts=url&name=true")).toEqual({
      status: 200,
      body: { records: { name: null, addresses: { 60: null }, texts: { url: null } }, accelerated: true },
    });
    expect(await get(a, `/primary-names/${ALICE}?chainIds=1,8453`)).toEqual({
      status: 200,
      body: { names: { 1: null, 8453: null }, accelerated: true },
    });
  });

  it("adds the resolution's trace with trace=true, and only then", async () => {
    const a = app({ cursor: 1_000_000 });
    const { status, body } = await get(a, "/records/alice.eth?addresses=60&trace=true");
    expect(status).toBe(200);
    expect(body.records).toEqual({ addresses: { 60: null } });
    const [root] = body.trace;
    expect(root).toMatchObject({
      name: "forward-resolution:forward-resolution",
      attributes: { name: "alice.eth", source: "index", "ens.protocol.step": "forward-resolution" },
      status: { code: 1 },
    });
    expect(root.children.map((c: { name: string }) => c.name)).toEqual(["forward-resolution:find-resolver"]);
    expect(root.events.map((e: { name: string }) => e.name)).toEqual([
      "forward-resolution:active-resolver-exists (false)",
    ]);
    const reverse = await get(a, `/primary-names/${ALICE}?chainIds=1,8453&trace=true`);
    expect(reverse.body.trace.map((r: { attributes: { chainId: number } }) => r.attributes.chainId).sort()).toEqual([
      1, 8453,
    ]);
    expect((await get(a, "/records/alice.eth?addresses=60&trace=false")).body.trace).toBeUndefined();
  });

  it("goes onchain when the index is behind, the plugin is off or accelerate=false (503 when the RPC is unreachable)", async () => {
    for (const [opts, query] of [
      [{ cursor: 1_000_000 - 61 }, ""],
      [{ cursor: 1_000_000, accelerationIndexed: false }, ""],
      [{ cursor: 1_000_000 }, "&accelerate=false"],
      [{}, ""],
    ] as const) {
      const { status, body } = await get(app(opts), `/records/alice.eth?addresses=60${query}`);
      expect(status).toBe(503);
      expect(body.message).toMatch(/^Onchain resolution failed/);
    }
  });
});

describe("index backend", () => {
  const node = namehash("alice.eth");
  /** Answers each query in turn (the backend issues them in a fixed order). */
  const backend = (...answers: unknown[][]) =>
    new IndexBackend(
      { execute: async () => answers.shift() ?? [] },
      {
        isExtendedResolver: async () => false,
        resolverKind: async () => ({ extended: false, permissioned: false }),
        isPlainPermissionedRegistry: async () => true,
        supportsInterface: async () => false,
      },
    );

  it("reads the records' current version and interprets unset values", async () => {
    const b = backend(
      [{ version: "1", name: "" }],
      [
        { coin_type: "60", value: ALICE },
        { coin_type: "0", value: "0x" },
      ],
      [{ key: "url", value: "https://a", has_value: true }],
    );
    expect(
      await b.records(1, PUBLIC, node, { coinTypes: [60n, 0n, 2n], texts: ["url", "avatar"], name: true }),
    ).toEqual({
      name: null,
      addresses: { 60: ALICE, 0: null, 2: null },
      texts: { url: "https://a", avatar: null },
    });
  });

  it("cannot answer a text set by the older TextChanged (no value), nor an extended resolver", async () => {
    const b = backend([{ version: 0, name: null }], [{ key: "url", value: null, has_value: false }]);
    await expect(b.records(1, PUBLIC, node, { coinTypes: [], texts: ["url"], name: false })).rejects.toBeInstanceOf(
      NotInIndex,
    );
    await expect(backend().records(1, EXTENDED, node, ALL, "alice.eth")).rejects.toBeInstanceOf(NotInIndex);
  });

  it("applies the old registry's record only where the registry with fallback has no record", async () => {
    const source = { chainId: 1, registry: PUBLIC, oldRegistry: EXTENDED };
    const ancestors = [{ node }, { node: namehash("eth") }];
    const rows = [
      { id: registryNodeId(1, PUBLIC, node), resolver: null, record_exists: false },
      { id: registryNodeId(1, EXTENDED, node), resolver: ALICE, record_exists: true },
    ];
    expect(await backend(rows).findResolver(source, ancestors)).toEqual({ resolver: ALICE, index: 0 });
    rows[0].record_exists = true;
    expect(await backend(rows).findResolver(source, ancestors)).toBeUndefined();
  });
});
