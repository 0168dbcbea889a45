import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  type Hex,
  http,
  labelhash,
  namehash,
  type PublicClient,
  parseAbi,
  zeroAddress,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevnetScenario, scenarioOf } from "../../devnet/src/index";
import type { Ensv2Scenario } from "../../devnet/src/scenario/ensv2-model";
import { sendAs as sendAsOn, syncClocksAndWaitRealtime } from "../../harness/chain-clock";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { indexerOptionsFor, type RunningIndexer, startIndexer } from "../../harness/indexer-harness";
import type { DevnetManifest } from "../../src/namespaces/devnet-manifest";

/*
 * Account.nameReferences and GET /api/resolve/name-references/:address on an indexed devnet (PLUGINS=subgraph,
 * basenames,protocol-acceleration,ensv2): every reference listed is what the chains say (the registry's resolver for
 * the node holds that address for that coin type), the scenario's names are listed under their addresses, and the
 * lists follow the chain as the test sets addresses, moves an address record to another account, changes and removes
 * resolvers and bumps a record version, on the ENS root chain, on Base and in ENSv2. Then paging with cursors both
 * ways and in REST, and bad input.
 */

const ROOT = 31337;
const BASE = 31338;
const BASE_COIN = 0x80000000n | BigInt(BASE);
const BTC_COIN = 0n;

const Registry = parseAbi([
  "function resolver(bytes32 node) view returns (address)",
  "function setResolver(bytes32 node, address resolver)",
  "function setSubnodeRecord(bytes32 node, bytes32 label, address owner, address resolver, uint64 ttl)",
]);
const Resolver = parseAbi([
  "function addr(bytes32 node, uint256 coinType) view returns (bytes)",
  "function setAddr(bytes32 node, uint256 coinType, bytes a)",
  "function clearRecords(bytes32 node)",
]);

let env: DevnetWithLabels;
let manifest: DevnetManifest;
let scenario: DevnetScenario;
let v2: Ensv2Scenario;
let indexer: RunningIndexer;
const clients = new Map<number, PublicClient>();
const statuses: number[] = [];

const lower = (a: string) => a.toLowerCase() as Address;
const rpcUrl = (chainId: number) => manifest.chains[String(chainId)]!.rpcUrl;
const clientOf = (chainId: number) => {
  if (!clients.has(chainId))
    clients.set(chainId, createPublicClient({ transport: http(rpcUrl(chainId)) }) as PublicClient);
  return clients.get(chainId)!;
};
const registryOn = (chainId: number) =>
  lower(manifest.datasources[chainId === ROOT ? "ensroot" : "basenames"]!.contracts.Registry!.address as string);
const send = (chainId: number, from: Address, to: Address, functionName: string, args: unknown[]) =>
  sendAsOn(
    { rpcUrl: rpcUrl(chainId), client: clientOf(chainId) },
    {
      from,
      to,
      data: encodeFunctionData({ abi: [...Registry, ...Resolver], functionName, args } as never),
      fund: true,
    },
  );
let fresh = 0;
/** A new address nobody used: the lists of it start empty. */
const freshAccount = () => lower(`0x${(0xa11ce000 + ++fresh).toString(16).padStart(8, "0")}${"ee".repeat(16)}`);

beforeAll(async () => {
  env = await startDevnetWithLabels({ seed: 11, names: 16, mineInterval: 1 });
  manifest = env.devnet.manifest;
  scenario = scenarioOf(manifest);
  v2 = scenario.ensv2 as unknown as Ensv2Scenario;
  indexer = await startIndexer(
    indexerOptionsFor(env, {
      plugins: ["subgraph", "basenames", "protocol-acceleration", "ensv2"],
      database: "postgres",
    }),
  );
  await indexer.process.ready();
  await syncClocksAndWaitRealtime(
    Object.keys(manifest.chains).map((id) => rpcUrl(Number(id))),
    indexer.url,
  );
}, 900_000);

afterAll(async () => {
  await indexer?.stop();
  await env?.stop();
});

// ---- reading the lists ----------------------------------------------------------------------------------------------

interface Ref {
  version: "ENSv1Domain" | "ENSv2Domain";
  domainId: string;
  name: string | null;
  coinType: string;
  resolver: { chainId: number; address: Address };
  match: boolean;
}

const REFS = /* GraphQL */ `
  query($address: Address!, $coinType: CoinType, $first: Int, $after: String, $last: Int, $before: String) {
    account(by: { address: $address }) {
      nameReferences(where: { coinType: $coinType }, first: $first, after: $after, last: $last, before: $before) {
        totalCount
        pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
        edges {
          cursor
          node {
            coinType
            match
            resolver { contract { chainId address } }
            domain { __typename id canonical { name { interpreted } } }
          }
        }
      }
    }
  }`;

async function graphql(query: string, variables: Record<string, unknown>) {
  const res = await fetch(`${indexer.url}/api/omnigraph`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  statuses.push(res.status);
  return { status: res.status, body: (await res.json()) as { data?: any; errors?: { message: string }[] } };
}

async function page(variables: Record<string, unknown>) {
  const { status, body } = await graphql(REFS, variables);
  if (status !== 200 || body.errors) throw new Error(`omnigraph ${status}: ${JSON.stringify(body.errors)}`);
  const c = body.data.account.nameReferences;
  return {
    totalCount: c.totalCount as number,
    pageInfo: c.pageInfo,
    refs: c.edges.map(
      (e: any): Ref => ({
        version: e.node.domain.__typename,
        domainId: e.node.domain.id,
        name: e.node.domain.canonical?.name?.interpreted ?? null,
        coinType: String(e.node.coinType),
        resolver: { chainId: e.node.resolver.contract.chainId, address: lower(e.node.resolver.contract.address) },
        match: e.node.match,
      }),
    ),
  };
}

/** The whole list, 50 at a time. */
async function refsOf(address: Address, coinType?: bigint): Promise<Ref[]> {
  const out: Ref[] = [];
  let after: string | null = null;
  for (;;) {
    const p = await page({ address, coinType: coinType?.toString() ?? null, first: 50, after });
    out.push(...p.refs);
    if (!p.pageInfo.hasNextPage) return out;
    after = p.pageInfo.endCursor;
  }
}

async function rest(path: string) {
  const res = await fetch(`${indexer.url}${path}`);
  statuses.push(res.status);
  return { status: res.status, body: (await res.json()) as any };
}

/** The REST list, `limit` at a time. */
async function restRefsOf(address: Address, coinType?: bigint, limit = 100) {
  const out: any[] = [];
  let cursor: string | null = null;
  for (;;) {
    const q = new URLSearchParams({ limit: String(limit) });
    if (coinType !== undefined) q.set("coinType", coinType.toString());
    if (cursor) q.set("cursor", cursor);
    const { status, body } = await rest(`/api/resolve/name-references/${address}?${q}`);
    expect(status, JSON.stringify(body)).toBe(200);
    out.push(...body.references);
    if (!body.nextCursor) return out;
    cursor = body.nextCursor;
  }
}

const summary = (refs: Ref[]) => refs.map((r) => `${r.domainId}@${r.coinType}@${r.resolver.address}`).sort();

/** Polls until the index's list (Omnigraph and REST agreeing) is `expected`; realtime indexing takes a moment. */
async function expectRefs(address: Address, expected: string[], coinType?: bigint) {
  const deadline = Date.now() + 60_000;
  let got: string[] = [];
  for (;;) {
    got = summary(await refsOf(address, coinType));
    if (JSON.stringify(got) === JSON.stringify([...expected].sort()) || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  expect(got).toEqual([...expected].sort());
  const viaRest = (await restRefsOf(address, coinType)).map((r) => `${r.domainId}@${r.coinType}@${r.resolver}`).sort();
  expect(viaRest).toEqual(got);
}

// ---- what the chain says ----------------------------------------------------------------------------------------

async function chainAddr(chainId: number, resolver: Address, node: Hex, coinType: bigint): Promise<Address | null> {
  const bytes = await clientOf(chainId).readContract({
    address: resolver,
    abi: Resolver,
    functionName: "addr",
    args: [node, coinType],
  });
  return bytes.length === 42 ? lower(bytes) : null;
}

/** ENSv1: the registry's resolver for the node (the registry with fallback applies its own rule on chain). */
async function chainResolver(chainId: number, node: Hex): Promise<Address | null> {
  const r = await clientOf(chainId).readContract({
    address: registryOn(chainId),
    abi: Registry,
    functionName: "resolver",
    args: [node],
  });
  return r === zeroAddress ? null : lower(r);
}

/** Every listed reference holds on chain: the name's current resolver answers this address for this coin type. */
async function expectChainAgrees(address: Address, refs: Ref[]) {
  for (const r of refs) {
    const node = (r.version === "ENSv1Domain" ? r.domainId : namehash(r.name!)) as Hex;
    if (r.version === "ENSv1Domain")
      expect(await chainResolver(r.resolver.chainId, node), r.domainId).toBe(r.resolver.address);
    expect(await chainAddr(r.resolver.chainId, r.resolver.address, node, BigInt(r.coinType)), r.domainId).toBe(address);
  }
}

const nodeRef = (node: Hex, coinType: bigint, resolver: Address) => `${node}@${coinType}@${lower(resolver)}`;

// ---- the tests --------------------------------------------------------------------------------------------------

describe("the scenario's names, as the chains say", () => {
  it("lists every ENSv1 (root chain and Base) and ENSv2 name whose current ETH address is the account, and only those", async () => {
    const v1 = scenario.names.filter((f) => f.addr && !f.deleted && (f.chainId === ROOT || f.chainId === BASE));
    const v2Named = v2.names.filter((f) => f.addr && f.resolver);
    const accounts = [...new Set([...v1, ...v2Named].map((f) => lower(f.addr!)))];
    expect(accounts.length).toBeGreaterThan(0);
    let listed = 0;
    let v2Listed = 0;
    for (const account of accounts) {
      const refs = await refsOf(account, 60n);
      await expectChainAgrees(account, refs);
      listed += refs.length;
      v2Listed += refs.filter((r) => r.version === "ENSv2Domain").length;
      for (const f of v1.filter((g) => lower(g.addr!) === account)) {
        const resolver = await chainResolver(f.chainId, f.node);
        const current = resolver && (await chainAddr(f.chainId, resolver, f.node, 60n));
        const shown = refs.some((r) => r.domainId === f.node && r.version === "ENSv1Domain");
        expect(shown, `${f.name} on ${f.chainId}`).toBe(current === account);
      }
      for (const f of v2Named.filter((g) => lower(g.addr!) === account)) {
        const current = await chainAddr(ROOT, lower(f.resolver!), namehash(f.name), 60n);
        const shown = refs.some((r) => r.version === "ENSv2Domain" && r.name === f.name);
        if (current === account) expect(shown, f.name).toBe(true);
      }
    }
    console.log(
      `[name-references] ${accounts.length} scenario accounts: ${listed} references listed (${v2Listed} ENSv2), each checked on chain`,
    );
    expect(v2Listed).toBeGreaterThan(0);
  }, 300_000);
});

describe("following the chain", () => {
  const modern = () => lower(scenario.otherContracts.ensroot!.ModernResolver!);
  const publicResolver = () => lower(scenario.otherContracts.ensroot!.PublicResolver!);
  const parentOf = () => {
    const parent = scenario.names.find(
      (f) =>
        f.chainId === ROOT &&
        f.labels.length === 2 &&
        f.labels[1] === "eth" &&
        !f.deleted &&
        f.wrappedOwner === undefined &&
        f.registryOwner &&
        f.registryOwner !== zeroAddress,
    );
    expect(parent, "an unwrapped .eth name").toBeDefined();
    return parent!;
  };

  it("ENSv1 root chain: addresses set, moved to another account, a resolver changed and removed, a version bumped", async () => {
    const parent = parentOf();
    const owner = lower(parent.registryOwner!);
    const label = `nr${Date.now().toString(36)}`;
    const node = namehash(`${label}.${parent.name}`);
    const [a, b] = [freshAccount(), freshAccount()];
    await send(ROOT, owner, registryOn(ROOT), "setSubnodeRecord", [parent.node, labelhash(label), owner, modern(), 0n]);
    await send(ROOT, owner, modern(), "setAddr", [node, 60n, a]);
    await send(ROOT, owner, modern(), "setAddr", [node, BASE_COIN, a]);
    // A bitcoin script of 20 bytes after its opcodes is not an account: never listed.
    await send(ROOT, owner, modern(), "setAddr", [node, BTC_COIN, `0x76a914${a.slice(2)}88ac`]);
    await expectRefs(a, [nodeRef(node, 60n, modern()), nodeRef(node, BASE_COIN, modern())]);
    await expectRefs(a, [nodeRef(node, 60n, modern())], 60n);
    await expectRefs(a, [], BTC_COIN);
    await expectChainAgrees(a, await refsOf(a));

    // The ETH record moves to b.
    await send(ROOT, owner, modern(), "setAddr", [node, 60n, b]);
    await expectRefs(b, [nodeRef(node, 60n, modern())]);
    await expectRefs(a, [nodeRef(node, BASE_COIN, modern())]);

    // Records on a resolver the name does not use count for nothing until the registry points at it.
    await send(ROOT, owner, publicResolver(), "setAddr", [node, 60n, a]);
    await new Promise((r) => setTimeout(r, 3000));
    await expectRefs(a, [nodeRef(node, BASE_COIN, modern())]);
    await send(ROOT, owner, registryOn(ROOT), "setResolver", [node, publicResolver()]);
    await expectRefs(a, [nodeRef(node, 60n, publicResolver())]);
    await expectRefs(b, []);
    await expectChainAgrees(a, await refsOf(a));

    // Back to the first resolver: its records were kept.
    await send(ROOT, owner, registryOn(ROOT), "setResolver", [node, modern()]);
    await expectRefs(a, [nodeRef(node, BASE_COIN, modern())]);
    await expectRefs(b, [nodeRef(node, 60n, modern())]);

    // clearRecords: a new record version, nothing set under it.
    await send(ROOT, owner, modern(), "clearRecords", [node]);
    await expectRefs(a, []);
    await expectRefs(b, []);
    await send(ROOT, owner, modern(), "setAddr", [node, 60n, b]);
    await expectRefs(b, [nodeRef(node, 60n, modern())]);

    // No resolver: no records.
    await send(ROOT, owner, registryOn(ROOT), "setResolver", [node, zeroAddress]);
    await expectRefs(b, []);
  }, 300_000);

  it("ENSv1 on Base: a basenames name's address record on Base's resolver", async () => {
    const f = scenario.names.find(
      (g) =>
        g.chainId === BASE &&
        g.labels.length === 3 &&
        !g.deleted &&
        g.resolver &&
        g.registryOwner &&
        g.registryOwner !== zeroAddress,
    );
    expect(f, "a basenames name with a resolver").toBeDefined();
    const resolver = (await chainResolver(BASE, f!.node))!;
    const c = freshAccount();
    await send(BASE, lower(f!.registryOwner!), resolver, "setAddr", [f!.node, BASE_COIN, c]);
    await expectRefs(c, [nodeRef(f!.node, BASE_COIN, resolver)]);
    const [ref] = await refsOf(c);
    expect(ref!.resolver.chainId).toBe(BASE);
    expect(ref!.name).toBe(f!.name);
    await expectChainAgrees(c, [ref!]);
  }, 120_000);

  it("ENSv2: a name's address record on its PermissionedResolver, moved to another account", async () => {
    const f = v2.names.find((g) => g.via === "registrar" && g.addr && g.resolver && !g.subregistry);
    expect(f, "an ENSv2 registrar name with an address").toBeDefined();
    const resolver = lower(f!.resolver!);
    const resolverOwner = Object.entries(v2.resolvers).find(([, r]) => lower(r) === resolver)![0] as Address;
    const node = namehash(f!.name);
    const before = await refsOf(lower(f!.addr!), 60n);
    const shown = before.find((r) => r.name === f!.name)!;
    expect(shown.version).toBe("ENSv2Domain");
    const d = freshAccount();
    await send(ROOT, resolverOwner, resolver, "setAddr", [node, 60n, d]);
    await expectRefs(d, [`${shown.domainId}@60@${resolver}`]);
    expect((await refsOf(lower(f!.addr!), 60n)).some((r) => r.domainId === shown.domainId)).toBe(false);
    await expectChainAgrees(d, await refsOf(d));
  }, 120_000);
});

describe("paging", () => {
  it("pages forwards and backwards with cursors, and REST pages the same list", async () => {
    const parent = scenario.names.find(
      (f) =>
        f.chainId === ROOT &&
        f.labels.length === 2 &&
        f.labels[1] === "eth" &&
        !f.deleted &&
        f.wrappedOwner === undefined &&
        f.registryOwner &&
        f.registryOwner !== zeroAddress,
    )!;
    const owner = lower(parent.registryOwner!);
    const modern = lower(scenario.otherContracts.ensroot!.ModernResolver!);
    const e = freshAccount();
    const expected: string[] = [];
    for (let i = 0; i < 5; i++) {
      const label = `pg${i}${Date.now().toString(36)}`;
      const node = namehash(`${label}.${parent.name}`);
      await send(ROOT, owner, registryOn(ROOT), "setSubnodeRecord", [parent.node, labelhash(label), owner, modern, 0n]);
      await send(ROOT, owner, modern, "setAddr", [node, 60n, e]);
      expected.push(nodeRef(node, 60n, modern));
    }
    await expectRefs(e, expected);
    const all = (await page({ address: e, first: 50 })).refs.map((r: Ref) => r.domainId);

    const forward: string[] = [];
    let after: string | null = null;
    for (let n = 0; n < 10; n++) {
      const p = await page({ address: e, first: 2, after });
      expect(p.totalCount).toBe(5);
      forward.push(...p.refs.map((r: Ref) => r.domainId));
      if (!p.pageInfo.hasNextPage) break;
      after = p.pageInfo.endCursor;
    }
    expect(forward).toEqual(all);

    const backward: string[] = [];
    let before: string | null = null;
    for (let n = 0; n < 10; n++) {
      const p = await page({ address: e, last: 2, before });
      backward.unshift(...p.refs.map((r: Ref) => r.domainId));
      if (!p.pageInfo.hasPreviousPage) break;
      before = p.pageInfo.startCursor;
    }
    expect(backward).toEqual(all);

    expect((await restRefsOf(e, undefined, 2)).map((r) => r.domainId)).toEqual(all);
  }, 180_000);
});

describe("bad input", () => {
  const someone = "0x000000000000000000000000000000000000dead";

  it("the Omnigraph refuses a bad coin type, cursor, address and page size with a clear error", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ address: someone, coinType: "-1" }, /CoinType/],
      [{ address: someone, coinType: "bitcoin" }, /CoinType/],
      [{ address: someone, after: "not-a-cursor" }, /Invalid cursor/],
      [{ address: "0x1234", first: 1 }, /Address/],
      [{ address: someone, first: 1001 }, /must be between 0 and 1000/],
      [{ address: someone, first: 1, last: 1 }, /`first` or `last`/],
    ];
    for (const [variables, message] of cases) {
      const { status, body } = await graphql(REFS, variables);
      expect(status, JSON.stringify(variables)).toBeLessThan(500);
      expect(body.errors?.[0]?.message, JSON.stringify(variables)).toMatch(message);
    }
  });

  it("REST answers 400 with the field and reason", async () => {
    const cases: [string, string, RegExp][] = [
      [`/api/resolve/name-references/0x1234`, "address", /40 hex digits/],
      [`/api/resolve/name-references/${someone}?coinType=abc`, "coinType", /non-negative integer/],
      [`/api/resolve/name-references/${someone}?coinType=${2n ** 256n}`, "coinType", /uint256/],
      [`/api/resolve/name-references/${someone}?limit=101`, "limit", /at most 100/],
      [`/api/resolve/name-references/${someone}?limit=0`, "limit", /at least 1/],
      [`/api/resolve/name-references/${someone}?cursor=zzz`, "cursor", /nextCursor/],
    ];
    for (const [path, field, message] of cases) {
      const { status, body } = await rest(path);
      expect(status, path).toBe(400);
      expect(body.message).toBe("Invalid Input");
      expect(body.details, path).toContainEqual({ field, message: expect.stringMatching(message) });
    }
    const { status, body } = await rest(`/api/resolve/name-references/${someone}`);
    expect(status).toBe(200);
    expect(body).toEqual({ references: [], nextCursor: null });
  });

  it("answered no request with a 5xx", () => {
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
  });
});
