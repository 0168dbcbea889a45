import { ens_normalize } from "@adraffy/ens-normalize";
import {
  type Address,
  createPublicClient,
  decodeFunctionResult,
  encodeFunctionData,
  type Hex,
  http,
  namehash,
  type PublicClient,
  parseAbi,
  zeroAddress,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevnetScenario, scenarioOf } from "../../devnet/src/index";
import { dnsEncode } from "../../src/lib/dns-wire";
import { nameInputProblem } from "../../src/lib/name-input";
import type { DevnetManifest } from "../../src/namespaces/devnet-manifest";
import type { DatasourceName } from "../../src/namespaces/types";
import { sendAs as sendAsOn, syncClocksAndWaitRealtime as syncClocks } from "../support/chain-clock";
import { type DevnetWithLabels, rpc, startDevnetWithLabels } from "../support/devnet-fixture";
import { type RunningIndexer, startIndexer } from "../support/indexer-harness";

/*
 * The resolution API on the devnet (PLUGINS=subgraph,basenames,lineanames,protocol-acceleration,ensv2), compared with
 * the chains' own answers read here with eth_call: ENSv2's walk first (the devnet has ENSv2 beside ENSv1; its own names
 * are test/e2e/ensv2-resolution.test.ts's), then
 * the registry's resolver(node) up the parents (ENSIP-10), the resolver's addr/text/name,
 * the reverse registrars' nameForAddr. Every scenario name's records and every account's primary names, answered
 * from the index (accelerated) and forced onchain (`accelerate=false`); the scenario's primary names must show (the
 * cross-chain account's on every chain, every normalized L2 one). Then the test makes a legacy addr.reverse name
 * resolve back and an L2 name stop resolving back, and checks the API follows. Bad input is a 400 with reasons; nothing is ever a 5xx.
 */

const ROOT = 31337;
const BASE = 31338;
const LINEA = 31339;
const CHAINS = [ROOT, BASE, LINEA];
const coinTypeOf = (chainId: number) => (chainId === ROOT ? 60n : 0x80000000n | BigInt(chainId));
const COIN_TYPES = [60n, 0n, 2147492101n, 0x80000000n, coinTypeOf(BASE), coinTypeOf(LINEA)];
const TEXT_KEYS = ["url", "avatar", "description", "com.twitter", "never-set"];

const RegistryRead = parseAbi([
  "function resolver(bytes32 node) view returns (address)",
  "function owner(bytes32 node) view returns (address)",
  "function setResolver(bytes32 node, address resolver)",
]);
const ResolverRead = parseAbi([
  "function addr(bytes32 node) view returns (address)",
  "function addr(bytes32 node, uint256 coinType) view returns (bytes)",
  "function text(bytes32 node, string key) view returns (string)",
  "function name(bytes32 node) view returns (string)",
  "function supportsInterface(bytes4 id) view returns (bool)",
  "function setAddr(bytes32 node, uint256 coinType, bytes a)",
]);
const ReverseRead = parseAbi(["function nameForAddr(address addr) view returns (string)"]);

let env: DevnetWithLabels;
let manifest: DevnetManifest;
let scenario: DevnetScenario;
let indexer: RunningIndexer;
const clients = new Map<number, PublicClient>();
const statuses: number[] = [];

const contract = (datasource: DatasourceName, name: string) =>
  (manifest.datasources[datasource]!.contracts[name]!.address as string).toLowerCase() as Address;
const rpcUrl = (chainId: number) => manifest.chains[String(chainId)]!.rpcUrl;

async function get(path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${indexer.url}${path}`);
  statuses.push(res.status);
  return { status: res.status, body: await res.json() };
}

/** Runs `fn` over `items`, `width` at a time. */
async function pool<T, R>(items: T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    }),
  );
  return out;
}

// ---- the chains' own answers -----------------------------------------------------------------------------------

async function call<T>(
  chainId: number,
  address: Address,
  functionName: string,
  args: unknown[],
  abi: any = ResolverRead,
): Promise<T | undefined> {
  try {
    return (await clients.get(chainId)!.readContract({ address, abi, functionName, args } as never)) as T;
  } catch {
    return undefined;
  }
}

function isNormalized(name: string): boolean {
  try {
    return ens_normalize(name) === name;
  } catch {
    return false;
  }
}

function isAcceptedName(name: string): boolean {
  return nameInputProblem(name) === undefined;
}

const Ensv2RegistryRead = parseAbi([
  "function getResolver(string label) view returns (address)",
  "function getSubregistry(string label) view returns (address)",
]);
const ExtendedResolve = parseAbi(["function resolve(bytes name, bytes data) view returns (bytes)"]);

/**
 * ENSv2 first (the devnet has it beside ENSv1): UniversalResolverV2's walk from the root registry by eth_call,
 * `getResolver`/`getSubregistry` per label. `found` is undefined when it finds no resolver or the ENSv1 fallback
 * resolver, which resolves through ENSv1; `wrapper` when it asked a WrapperRegistry (the index leaves those to the
 * chain, whichever version then answers).
 */
async function chainEnsv2Resolver(
  name: string,
): Promise<{ found: { resolver: Address; exact: boolean } | undefined; wrapper: boolean }> {
  const labels = name.split(".");
  const wrappers = new Set(
    (scenario.ensv2 as { registries: { address: string; kind: string }[] }).registries
      .filter((r) => r.kind === "wrapper")
      .map((r) => r.address.toLowerCase()),
  );
  let registry: Address | null = (manifest.ensv2!.contracts.RootRegistry!.address as string).toLowerCase() as Address;
  let found: { resolver: Address; exact: boolean } | undefined;
  let wrapper = false;
  for (let i = labels.length - 1; i >= 0 && registry; i--) {
    if (wrappers.has(registry)) wrapper = true;
    const [resolver, sub] = await Promise.all(
      (["getResolver", "getSubregistry"] as const).map((fn) =>
        call<Address>(ROOT, registry!, fn, [labels[i]], Ensv2RegistryRead),
      ),
    );
    if (resolver && resolver !== zeroAddress) found = { resolver: resolver.toLowerCase() as Address, exact: i === 0 };
    registry = sub && sub !== zeroAddress ? (sub.toLowerCase() as Address) : null;
  }
  const fallback = (manifest.ensv2!.contracts.ENSV1Resolver!.address as string).toLowerCase();
  return { found: found && found.resolver !== fallback ? found : undefined, wrapper };
}

/** ENSIP-10 on the devnet's registries (and, first, the 3DNS token for names outside .eth and .reverse, exact node only). */
async function chainResolver(
  name: string,
): Promise<{ chainId: number; resolver: Address; exact: boolean; ensv2?: true } | undefined> {
  const v2 = await chainEnsv2Resolver(name);
  if (v2.found) return { chainId: ROOT, ...v2.found, ensv2: true };
  return chainEnsv1Resolver(name);
}

async function chainEnsv1Resolver(
  name: string,
): Promise<{ chainId: number; resolver: Address; exact: boolean } | undefined> {
  const labels = name.split(".");
  let chainId = ROOT;
  let registry = contract("ensroot", "Registry");
  if (name.endsWith(".base.eth")) [chainId, registry] = [BASE, contract("basenames", "Registry")];
  else if (name.endsWith(".linea.eth")) [chainId, registry] = [LINEA, contract("lineanames", "Registry")];
  else if (labels.length >= 2 && !["eth", "reverse"].includes(labels[labels.length - 1]!)) {
    const resolver = await call<Address>(
      BASE,
      contract("threednsBase", "ThreeDNSToken"),
      "resolver",
      [namehash(name)],
      RegistryRead,
    );
    if (resolver && resolver !== zeroAddress)
      return { chainId: BASE, resolver: resolver.toLowerCase() as Address, exact: true };
  }
  for (let i = 0; i < labels.length; i++) {
    const resolver = await call<Address>(
      chainId,
      registry,
      "resolver",
      [namehash(labels.slice(i).join("."))],
      RegistryRead,
    );
    if (resolver && resolver !== zeroAddress)
      return { chainId, resolver: resolver.toLowerCase() as Address, exact: i === 0 };
  }
  return undefined;
}

function addressValue(coinType: bigint, raw: string | undefined): string | null {
  if (!raw || raw === "0x") return null;
  const isEvm = coinType === 60n || (coinType >= 0x80000000n && coinType < 0x100000000n);
  if (isEvm && raw.length === 42 && BigInt(raw) === 0n) return null;
  return raw.toLowerCase();
}

async function chainRecords(name: string, coinTypes: bigint[], texts: string[], withName: boolean) {
  const found = await chainResolver(name);
  const node = namehash(name);
  const usable =
    found && (found.exact || (await call<boolean>(found.chainId, found.resolver, "supportsInterface", ["0x9061b923"])));
  if (found && !found.exact && !found.ensv2)
    expect(usable, `${name}: ENSv1 on the devnet has no ENSIP-10 extended resolvers`).toBeFalsy();
  // An ENSv2 resolver is asked as UniversalResolverV2 asks it: through resolve() when it is extended.
  const extended =
    found?.ensv2 === true && (await call<boolean>(ROOT, found.resolver, "supportsInterface", ["0x9061b923"]));
  const read = async <T>(fn: string, args: unknown[]): Promise<T | undefined> => {
    if (!usable) return undefined;
    if (!extended) return call<T>(found!.chainId, found!.resolver, fn, args);
    const data = encodeFunctionData({ abi: ResolverRead, functionName: fn, args } as never);
    const raw = await call<Hex>(ROOT, found!.resolver, "resolve", [dnsEncode(name), data], ExtendedResolve);
    return raw === undefined
      ? undefined
      : (decodeFunctionResult({ abi: ResolverRead, functionName: fn, args, data: raw } as never) as T);
  };
  const addresses: Record<string, string | null> = {};
  for (const c of coinTypes) {
    let raw = await read<Hex>("addr", [node, c]);
    if (raw === undefined && c === 60n) raw = await read<Hex>("addr", [node]);
    addresses[c.toString()] = addressValue(c, raw);
  }
  const textValues: Record<string, string | null> = {};
  for (const k of texts) textValues[k] = (await read<string>("text", [node, k])) || null;
  return {
    ...(withName ? { name: (await read<string>("name", [node])) || null } : {}),
    ...(coinTypes.length ? { addresses } : {}),
    ...(texts.length ? { texts: textValues } : {}),
  };
}

/** ENSIP-19: addr.reverse on the root chain, the L2 reverse registrar elsewhere, then the default; verified forward. */
async function chainPrimary(address: Address, chainId: number): Promise<string | null> {
  const specific =
    chainId === ROOT
      ? (await chainRecords(`${address.slice(2).toLowerCase()}.addr.reverse`, [], [], true)).name
      : await call<string>(
          chainId,
          contract(chainId === BASE ? "reverseBase" : "reverseLinea", "L2ReverseRegistrar"),
          "nameForAddr",
          [address],
          ReverseRead,
        );
  const name =
    specific ||
    (await call<string>(ROOT, contract("ensroot", "DefaultReverseRegistrar"), "nameForAddr", [address], ReverseRead));
  if (!name || !isNormalized(name)) return null;
  const coinType = coinTypeOf(chainId);
  const forward = await chainRecords(name, [coinType], [], false);
  return forward.addresses![coinType.toString()] === address.toLowerCase() ? name : null;
}

// ---- devnet helpers ----------------------------------------------------------------------------------------------

/** Sends as `from` on `chainId` (impersonated) and waits for its receipt. */
const sendAs = (chainId: number, from: Address, to: Address, data: Hex) =>
  sendAsOn({ rpcUrl: rpcUrl(chainId), client: clients.get(chainId)! }, { from, to, data });
/** One block on every chain at the wall clock, then waits until the index is realtime past them. */
const syncClocksAndWaitRealtime = () => syncClocks(CHAINS.map(rpcUrl), indexer.url);

beforeAll(async () => {
  env = await startDevnetWithLabels({ seed: 11, names: 40, mineInterval: 1 });
  manifest = env.devnet.manifest;
  scenario = scenarioOf(manifest);
  for (const chainId of CHAINS)
    clients.set(chainId, createPublicClient({ transport: http(rpcUrl(chainId)) }) as PublicClient);
  indexer = await startIndexer({
    manifestPath: env.devnet.manifestPath,
    labelsServiceUrl: env.labelsUrl,
    // The devnet has ENSv2 beside ENSv1: every name resolves through ENSv2 first (its plugin lets the index do it).
    plugins: ["subgraph", "basenames", "lineanames", "protocol-acceleration", "ensv2"],
    // PostgreSQL, as deployed. On PGlite the API shares the indexer's session, where Ponder's flush can leave
    // temporary tables named like ours: unqualified reads then see those, and some runs answered from empty tables.
    database: "postgres",
  });
  await indexer.process.ready();
  await syncClocksAndWaitRealtime();
}, 900_000);

afterAll(async () => {
  await indexer?.stop();
  await env?.stop();
});

const recordsPath = (name: string, accelerate: boolean) =>
  `/api/resolve/records/${encodeURIComponent(name)}?addresses=${COIN_TYPES.join(",")}&texts=${TEXT_KEYS.map(encodeURIComponent).join(",")}&name=true${accelerate ? "" : "&accelerate=false"}`;

describe("records", () => {
  it("of every scenario name (and wildcard children, reverse names, unknown names) equal eth_call reads, accelerated and onchain", async () => {
    // Both older resolvers emit TextChanged without the value: the index sends such texts to the chain.
    const valuelessTexts = new Set(
      ["LegacyPublicResolver", "PublicResolver"].map((c) => scenario.otherContracts.ensroot![c]!.toLowerCase()),
    );
    const names = [
      ...new Set([
        ...scenario.names.map((f) => f.name),
        ...scenario.names.filter((f) => f.resolver).map((f) => `wild-child.${f.name}`),
        ...scenario.accounts.map((a) => `${a.slice(2).toLowerCase()}.addr.reverse`),
        "never-registered-anywhere.eth",
        "never-registered.base.eth",
        "nothing.xyz",
      ]),
    ];
    await syncClocksAndWaitRealtime();
    let compared = 0;
    let accelerated = 0;
    let withAddress = 0;
    let withText = 0;
    // Every L2 scenario name (Basenames, Lineanames, 3DNS) is among them, answered from its L2 contracts' reads.
    const l2Names = new Set(scenario.names.filter((f) => f.chainId !== ROOT).map((f) => f.name));
    const l2WithRecords = { base: 0, linea: 0, threedns: 0 };
    let l2Compared = 0;
    await pool(names, 6, async (name) => {
      // Accepted: normalized names, and names with `[labelhash]` labels (the scenario's literal "[64 hex]" label reads
      // as one, as viem's namehash and ENS clients read it).
      if (!isAcceptedName(name)) {
        const { status, body } = await get(recordsPath(name, true));
        expect(status, name).toBe(400);
        expect(body.details[0].message, name).toMatch(/normalized|not a valid ENS name/);
        return;
      }
      const expected = await chainRecords(name, COIN_TYPES, TEXT_KEYS, true);
      const [fast, slow] = [await get(recordsPath(name, true)), await get(recordsPath(name, false))];
      expect(fast.status, name).toBe(200);
      expect(slow.status, name).toBe(200);
      expect(fast.body.records, `${name} (index)`).toEqual(expected);
      expect(slow.body.records, `${name} (onchain)`).toEqual(expected);
      expect(slow.body.accelerated).toBe(false);
      const found = await chainResolver(name);
      // A walk through a WrapperRegistry (ENSv2's locked migration) is answered by the chain.
      if ((await chainEnsv2Resolver(name)).wrapper) expect(fast.body.accelerated, name).toBe(false);
      else if (!found || !valuelessTexts.has(found.resolver)) expect(fast.body.accelerated, name).toBe(true);
      if (fast.body.accelerated) accelerated++;
      compared++;
      if (expected.addresses!["60"]) withAddress++;
      if (Object.values(expected.texts!).some((v) => v !== null)) withText++;
      if (l2Names.has(name)) {
        l2Compared++;
        const source = name.endsWith(".base.eth") ? "base" : name.endsWith(".linea.eth") ? "linea" : "threedns";
        if (expected.addresses!["60"] && Object.values(expected.texts!).some((v) => v !== null))
          l2WithRecords[source]++;
      }
    });
    // The comparison means something only if plenty of records are set.
    expect(compared).toBeGreaterThan(100);
    expect(accelerated).toBeGreaterThan(compared / 2);
    expect(withAddress).toBeGreaterThan(20);
    expect(withText).toBeGreaterThan(20);
    expect(l2Compared).toBe([...l2Names].filter(isAcceptedName).length);
    for (const [source, n] of Object.entries(l2WithRecords))
      expect(n, `${source} names with records`).toBeGreaterThan(0);
  }, 600_000);

  it("match the scenario's expected texts and ETH address for names that have them", async () => {
    // A name whose labels hold a dot ("dot.ted") is another name as a string: only names whose string is their node.
    const named = scenario.names.filter(
      (n) => !n.deleted && n.resolver && (n.texts || n.addr) && isNormalized(n.name) && namehash(n.name) === n.node,
    );
    expect(named.length).toBeGreaterThan(20);
    for (const f of named) {
      const keys = Object.keys(f.texts ?? {});
      const { body } = await get(
        `/api/resolve/records/${encodeURIComponent(f.name)}?addresses=60&texts=${keys.join(",")}`,
      );
      if (f.addr) expect(body.records.addresses["60"], f.name).toBe(f.addr.toLowerCase());
      for (const k of keys) expect(body.records.texts[k], `${f.name} ${k}`).toBe(f.texts![k]);
    }
  }, 300_000);

  it("of 3DNS names answer DNS TXT records at <key>.ens as texts, and an ordinary resolver's DNS records as nothing, like eth_call", async () => {
    const threedns = scenario.names.filter((f) => f.via.startsWith("3dns") && !f.deleted);
    expect(
      threedns.some((f) => f.via === "3dns-subname" && f.labels.length > 3),
      "a 3DNS subname below a subname",
    ).toBe(true);
    const keys = ["url", "avatar", "description", "com.twitter"];
    const values: string[] = [];
    for (const f of threedns) {
      const expected = await chainRecords(f.name, [], keys, false);
      for (const accelerate of [true, false]) {
        const { status, body } = await get(
          `/api/resolve/records/${encodeURIComponent(f.name)}?texts=${keys.join(",")}${accelerate ? "" : "&accelerate=false"}`,
        );
        expect(status, f.name).toBe(200);
        expect(body.records.texts, `${f.name} (${accelerate ? "index" : "onchain"})`).toEqual(expected.texts);
        if (accelerate) expect(body.accelerated, f.name).toBe(true);
      }
      values.push(...Object.values(expected.texts!).filter((v): v is string => v !== null));
    }
    // The scenario's TXT texts are there: a value joined from two character-strings, and a url over a setText one.
    expect(values.some((v) => v.length > 255 && v.startsWith("a long description"))).toBe(true);
    expect(values.some((v) => threedns.some((f) => v === `https://${f.name}/`))).toBe(true);
    // The Basenames resolver's TXT records at avatar.ens and url.ens are DNS records only.
    const plainTexts = await Promise.all(
      scenario.names
        .filter((f) => f.name.endsWith(".base.eth") && f.resolver && !f.deleted && isNormalized(f.name))
        .map(async (f) => {
          const { body } = await get(`/api/resolve/records/${encodeURIComponent(f.name)}?texts=avatar,url`);
          return Object.values(body.records.texts as Record<string, string | null>);
        }),
    );
    expect(plainTexts.flat().filter((v) => v?.startsWith("not a text record"))).toEqual([]);
  }, 300_000);
});

describe("primary names", () => {
  const everyAddress = () => [
    ...new Set(
      [
        ...scenario.accounts,
        ...Object.keys(scenario.primaryNames.root),
        ...Object.keys(scenario.primaryNames.base),
        ...Object.keys(scenario.primaryNames.linea),
        scenario.crossChainPrimary.address,
      ].map((a) => a.toLowerCase() as Address),
    ),
  ];

  async function compareAll(): Promise<Record<string, Record<string, string | null>>> {
    await syncClocksAndWaitRealtime();
    const answers: Record<string, Record<string, string | null>> = {};
    await pool(everyAddress(), 4, async (address) => {
      const expected = Object.fromEntries(
        await Promise.all(CHAINS.map(async (id) => [String(id), await chainPrimary(address, id)] as const)),
      );
      const fast = await get(`/api/resolve/primary-names/${address}?chainIds=${CHAINS.join(",")}`);
      const slow = await get(`/api/resolve/primary-names/${address}?chainIds=${CHAINS.join(",")}&accelerate=false`);
      expect(fast.body, address).toEqual({ names: expected, accelerated: true });
      expect(slow.body, address).toEqual({ names: expected, accelerated: false });
      for (const id of CHAINS) {
        const one = await get(`/api/resolve/primary-name/${address}/${id}`);
        expect(one.body, `${address} on ${id}`).toEqual({ name: expected[String(id)], accelerated: true });
      }
      answers[address] = expected;
    });
    return answers;
  }

  it("of every account equal the chains' ENSIP-19 answers (legacy, default, L2), and the scenario's names show", async () => {
    const answers = await compareAll();
    // The cross-chain account has its name on every chain: addr.reverse on the root chain, the L2 reverse registrars.
    const cross = scenario.crossChainPrimary;
    expect(Object.values(cross.names).every((n) => typeof n === "string" && n.length > 0)).toBe(true);
    expect(answers[cross.address.toLowerCase()]).toEqual(cross.names);
    // Every L2 primary name the scenario set (as a user does: the chain's coin type, then the reverse registrar).
    for (const [chainId, byAddress] of [
      [BASE, scenario.primaryNames.base],
      [LINEA, scenario.primaryNames.linea],
    ] as const) {
      const expected = Object.entries(byAddress).filter(([, name]) => isNormalized(name));
      expect(expected.length, `normalized primary names on ${chainId}`).toBeGreaterThan(1);
      for (const [address, name] of expected)
        expect(answers[address.toLowerCase()]![String(chainId)], `${address} on ${chainId}`).toBe(name);
    }
  }, 600_000);

  it("follow the chains once a legacy name resolves back and an L2 name stops resolving back", async () => {
    // A legacy addr.reverse name whose name has no resolver yet: give it the newer resolver and the address.
    const modern = scenario.otherContracts.ensroot!.ModernResolver!;
    const registry = contract("ensroot", "Registry");
    const cross = scenario.crossChainPrimary;
    let legacy: { address: Address; name: string } | undefined;
    for (const [address, p] of Object.entries(scenario.primaryNames.root)) {
      if (!p.legacy || !isNormalized(p.legacy) || address.toLowerCase() === cross.address.toLowerCase()) continue;
      const owner = await call<Address>(ROOT, registry, "owner", [namehash(p.legacy)], RegistryRead);
      if (owner?.toLowerCase() !== address.toLowerCase()) continue;
      if (await chainPrimary(address as Address, ROOT)) continue;
      legacy = { address: address as Address, name: p.legacy };
      const node = namehash(p.legacy);
      await sendAs(
        ROOT,
        legacy.address,
        registry,
        encodeFunctionData({ abi: RegistryRead, functionName: "setResolver", args: [node, modern] }),
      );
      await sendAs(
        ROOT,
        legacy.address,
        modern,
        encodeFunctionData({ abi: ResolverRead, functionName: "setAddr", args: [node, 60n, legacy.address] }),
      );
      break;
    }
    expect(legacy, "a legacy primary name owned by its address that does not resolve back yet").toBeDefined();

    // The cross-chain account clears its Base name's address for Base's coin type: no primary name on Base any more.
    const baseName = cross.names[String(BASE)]!;
    const found = await chainResolver(baseName);
    await sendAs(
      BASE,
      cross.address,
      found!.resolver,
      encodeFunctionData({
        abi: ResolverRead,
        functionName: "setAddr",
        args: [namehash(baseName), coinTypeOf(BASE), "0x"],
      }),
    );

    const answers = await compareAll();
    expect(answers[legacy!.address.toLowerCase()]![String(ROOT)]).toBe(legacy!.name);
    expect(answers[cross.address.toLowerCase()]).toEqual({ ...cross.names, [String(BASE)]: null });
  }, 600_000);
});

describe("bad input", () => {
  it("is a 400 with the reasons", async () => {
    const cases: [string, string][] = [
      ["/api/resolve/records/Alice.eth", 'its normalized form is "alice.eth"'],
      ["/api/resolve/records/alice.eth?addresses=sixty", "each coin type must be a non-negative integer"],
      ["/api/resolve/records/alice.eth?addresses=-60", "each coin type must be a non-negative integer"],
      ["/api/resolve/records/alice.eth?texts=a,,b", "text keys must not be empty"],
      [
        `/api/resolve/records/alice.eth?texts=${Array.from({ length: 30 }, (_, i) => i).join(",")}`,
        "at most 20 text keys",
      ],
      ["/api/resolve/primary-name/0xabc/31337", "address must be 0x followed by 40 hex digits"],
      [
        `/api/resolve/primary-name/${scenario.crossChainPrimary.address}/1`,
        "chain id must be one of the indexed chains: 31337, 31338, 31339",
      ],
      [
        `/api/resolve/primary-names/${scenario.crossChainPrimary.address}?chainIds=31337,x`,
        "chain id must be a non-negative integer",
      ],
    ];
    for (const [path, reason] of cases) {
      const { status, body } = await get(path);
      expect(status, path).toBe(400);
      expect(body.message).toBe("Invalid Input");
      expect(body.details.map((d: { message: string }) => d.message).join(" | "), path).toContain(reason);
    }
  });

  it("never met a 5xx", () => {
    expect(statuses.length).toBeGreaterThan(100);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
  });
});
