import { readFileSync } from "node:fs";
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
  toHex,
  zeroAddress,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevnetScenario, scenarioOf } from "../../devnet/src/index";
import { sendAs as sendAsOn, syncClocksAndWaitRealtime as syncClocks } from "../../harness/chain-clock";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { type RunningIndexer, startIndexer } from "../../harness/indexer-harness";
import { dnsEncode } from "../../src/lib/dns-wire";
import { nameInputProblem } from "../../src/lib/name-input";
import type { DevnetManifest } from "../../src/namespaces/devnet-manifest";
import type { DatasourceName } from "../../src/namespaces/types";

/*
 * The resolution API on the devnet (PLUGINS=subgraph,basenames,lineanames,protocol-acceleration,ensv2), compared with
 * the chains' own answers read here with eth_call: ENSv2's walk first (the devnet has ENSv2 beside ENSv1; its own names
 * are test/e2e/ensv2-resolution.system.test.ts's), then
 * the registry's resolver(node) up the parents (ENSIP-10), the resolver's addr/text/name,
 * the reverse registrars' nameForAddr. Every scenario name's records and every account's primary names, answered
 * from the index (accelerated) and forced onchain (`accelerate=false`); the scenario's primary names must show (the
 * cross-chain account's on every chain, every normalized L2 one). Then the test makes a legacy addr.reverse name
 * resolve back and an L2 name stop resolving back, and checks the API follows. Bad input is a 400 with reasons; nothing is ever a 5xx.
 *
 * Then every record kind (this was test/e2e/record-kinds.test.ts, which started the same devnet and indexer): pubkey,
 * ABI, interface implementers, DNS zonehash, version and the name record, through /api/resolve/records and the
 * Omnigraph's `records`, answered from the index and forced onchain. The two agree on every scenario name (whose
 * resolvers, old and new, hold every kind somewhere); texts written by the value-less TextChanged are answered by the
 * index; a name given every kind here reads them back from both, equal to the resolver's own eth_call answers, and a
 * clearRecords empties them all; an index built with RESOLVER_READS=false leaves such texts and ABIs to the chain.
 *
 * One devnet and one indexer for both. The tests that hold the index to the scenario's own records and primary names
 * run first; the ones that write records (the primary names' last test, then the record kinds') come after them, and
 * compare with what the chains answer at that time.
 */

const ROOT = 31337;
const BASE = 31338;
const LINEA = 31339;
const CHAINS = [ROOT, BASE, LINEA];
const coinTypeOf = (chainId: number) => (chainId === ROOT ? 60n : 0x80000000n | BigInt(chainId));
const COIN_TYPES = [60n, 0n, 2147492101n, 0x80000000n, coinTypeOf(BASE), coinTypeOf(LINEA)];
const TEXT_KEYS = ["url", "avatar", "description", "com.twitter", "never-set"];
const KIND_QUERY = "pubkey=true&abi=15&interfaces=0x01ffc9a7,0xdeadbeef&dnszonehash=true&version=true&name=true";

const ResolverWrite = parseAbi([
  "function setPubkey(bytes32 node, bytes32 x, bytes32 y)",
  "function setABI(bytes32 node, uint256 contentType, bytes data)",
  "function setInterface(bytes32 node, bytes4 interfaceID, address implementer)",
  "function clearRecords(bytes32 node)",
  "function pubkey(bytes32 node) view returns (bytes32 x, bytes32 y)",
  "function ABI(bytes32 node, uint256 contentTypes) view returns (uint256, bytes)",
  "function interfaceImplementer(bytes32 node, bytes4 interfaceID) view returns (address)",
  "function recordVersions(bytes32 node) view returns (uint64)",
]);

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
  // A 5xx is a bug: show the server's side of it.
  if (res.status >= 500) console.error(path, readFileSync(indexer.logFile, "utf8").split("\n").slice(-40).join("\n"));
  return { status: res.status, body: await res.json() };
}

async function graph(query: string, variables: Record<string, unknown>): Promise<any> {
  const res = await fetch(`${indexer.url}/api/omnigraph`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  statuses.push(res.status);
  return res.json();
}

/** Live scenario names on the resolvers that emit the value-less TextChanged (the 2019 and 2020 PublicResolvers). */
function namesOnOldResolvers() {
  const old = new Set(
    ["LegacyPublicResolver", "PublicResolver"].map((c) => scenario.otherContracts.ensroot![c]!.toLowerCase()),
  );
  return scenario.names.filter(
    (f) =>
      !f.deleted &&
      f.resolver &&
      old.has(f.resolver.toLowerCase()) &&
      nameInputProblem(f.name) === undefined &&
      namehash(f.name) === f.node,
  );
}

const RECORDS_QUERY = /* GraphQL */ `
  query Kinds($name: InterpretedName!, $accelerate: Boolean!) {
    domain(by: { name: $name }) {
      resolve(accelerate: $accelerate) {
        acceleration { attempted }
        records {
          pubkey { x y }
          json: abi(contentTypeMask: 1) { contentType data }
          any: abi(contentTypeMask: 15) { contentType data }
          interfaces(ids: ["0x01ffc9a7", "0xdeadbeef"]) { interfaceId implementer }
          dnszonehash
          version
          reverseName
        }
      }
    }
  }
`;

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
/** The same, funding `from` first (a name's registry owner may be a contract such as the NameWrapper). */
const sendAsFunded = (chainId: number, from: Address, to: Address, data: Hex) =>
  sendAsOn({ rpcUrl: rpcUrl(chainId), client: clients.get(chainId)! }, { from, to, data, fund: true });
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

describe("every record kind", () => {
  it("answers the same from the index and from the chain for every scenario name", async () => {
    const names = [...new Set(scenario.names.filter((f) => !f.deleted).map((f) => f.name))].filter(
      (n) => nameInputProblem(n) === undefined,
    );
    const filled = { pubkey: 0, abi: 0, interface: 0, dnszonehash: 0, version: 0, name: 0 };
    let accelerated = 0;
    for (const name of names) {
      const path = `/api/resolve/records/${encodeURIComponent(name)}?${KIND_QUERY}`;
      const [fast, slow] = [await get(path), await get(`${path}&accelerate=false`)];
      expect(fast.status, name).toBe(200);
      expect(slow.status, name).toBe(200);
      expect(fast.body.records, name).toEqual(slow.body.records);
      if (fast.body.accelerated) accelerated++;
      const r = fast.body.records;
      if (r.pubkey) filled.pubkey++;
      if (r.abi) filled.abi++;
      if (r.interfaces["0x01ffc9a7"]) filled.interface++;
      if (r.dnszonehash) filled.dnszonehash++;
      if (r.version) filled.version++;
      if (r.name) filled.name++;
    }
    // The comparison means something only if the index answered and every kind is set somewhere.
    expect(accelerated).toBeGreaterThan(names.length * 0.8);
    for (const [kind, n] of Object.entries(filled)) expect(n, `names with ${kind}`).toBeGreaterThan(0);
  }, 600_000);

  it("answers texts of the value-less TextChanged from the index", async () => {
    const named = namesOnOldResolvers().filter((f) => f.texts);
    let fromIndex = 0;
    for (const f of named) {
      const keys = Object.keys(f.texts!).join(",");
      const path = `/api/resolve/records/${encodeURIComponent(f.name)}?texts=${keys}`;
      const [fast, slow] = [await get(path), await get(`${path}&accelerate=false`)];
      expect(fast.body.records, f.name).toEqual(slow.body.records);
      if (fast.body.accelerated && Object.values(fast.body.records.texts).some((v) => v !== null)) fromIndex++;
    }
    expect(named.length).toBeGreaterThan(3);
    // Every such name with a text is answered by the index now (ENSv2 may still route a migrated one elsewhere).
    expect(fromIndex).toBeGreaterThan(named.length / 2);
  }, 300_000);

  it("reads back what a resolver was given, then nothing after clearRecords, in REST and the Omnigraph", async () => {
    // A Basenames name (its resolver is a multicoin resolver with versions; ENSv2 has no base.eth, so ENSv1 answers).
    const resolver = (manifest.datasources.basenames!.contracts.Resolver as { address?: string }).address;
    const f = scenario.names.find(
      (n) =>
        n.chainId === BASE &&
        !n.deleted &&
        n.name.endsWith(".base.eth") &&
        n.labels.length === 3 &&
        n.resolver?.toLowerCase() === (resolver ?? n.resolver)?.toLowerCase() &&
        n.registryOwner &&
        nameInputProblem(n.name) === undefined,
    )!;
    expect(f, "a Basenames name with a resolver").toBeDefined();
    const to = f.resolver!.toLowerCase() as Address;
    const owner = f.registryOwner!;
    const x = toHex(11n, { size: 32 });
    const y = toHex(22n, { size: 32 });
    const json = toHex('[{"type":"function","name":"hello"}]');
    const uri = toHex("ipfs://abi");
    const implementer = "0x000000000000000000000000000000000000beef";
    for (const [functionName, args] of [
      ["setPubkey", [f.node, x, y]],
      ["setABI", [f.node, 8n, uri]],
      ["setABI", [f.node, 1n, json]],
      ["setInterface", [f.node, "0x01ffc9a7", implementer]],
    ] as const)
      await sendAsFunded(BASE, owner, to, encodeFunctionData({ abi: ResolverWrite, functionName, args } as never));
    await syncClocksAndWaitRealtime();

    const client = clients.get(BASE)!;
    const read = <T>(functionName: string, args: unknown[]) =>
      client.readContract({ address: to, abi: ResolverWrite, functionName, args } as never) as Promise<T>;
    expect(await read<readonly [Hex, Hex]>("pubkey", [f.node])).toEqual([x, y]);
    const versionBefore = await read<bigint>("recordVersions", [f.node]);

    for (const accelerate of [true, false]) {
      const { body } = await get(
        `/api/resolve/records/${encodeURIComponent(f.name)}?${KIND_QUERY}${accelerate ? "" : "&accelerate=false"}`,
      );
      expect(body.accelerated).toBe(accelerate);
      expect(body.records.pubkey).toEqual({ x, y });
      // Mask 15 answers the lowest set bit: JSON (1) before the URI (8).
      expect(body.records.abi).toEqual({ contentType: "1", data: json });
      expect(body.records.interfaces).toEqual({ "0x01ffc9a7": implementer, "0xdeadbeef": null });
      expect(body.records.version).toBe(versionBefore === 0n ? null : versionBefore.toString());
      const only8 = await get(
        `/api/resolve/records/${encodeURIComponent(f.name)}?abi=8${accelerate ? "" : "&accelerate=false"}`,
      );
      expect(only8.body.records.abi).toEqual({ contentType: "8", data: uri });

      const g = await graph(RECORDS_QUERY, { name: f.name, accelerate });
      expect(g.errors).toBeUndefined();
      const resolved = g.data.domain.resolve;
      expect(resolved.acceleration.attempted).toBe(accelerate);
      expect(resolved.records).toMatchObject({
        pubkey: { x, y },
        json: { contentType: "1", data: json },
        any: { contentType: "1", data: json },
        interfaces: [
          { interfaceId: "0x01ffc9a7", implementer },
          { interfaceId: "0xdeadbeef", implementer: null },
        ],
      });
    }

    await sendAsFunded(
      BASE,
      owner,
      to,
      encodeFunctionData({ abi: ResolverWrite, functionName: "clearRecords", args: [f.node] }),
    );
    await syncClocksAndWaitRealtime();
    const version = (versionBefore + 1n).toString();
    for (const accelerate of [true, false]) {
      const { body } = await get(
        `/api/resolve/records/${encodeURIComponent(f.name)}?${KIND_QUERY}&addresses=60&texts=url,avatar,description${accelerate ? "" : "&accelerate=false"}`,
      );
      expect(body.accelerated).toBe(accelerate);
      expect(body.records).toEqual({
        name: null,
        addresses: { "60": null },
        texts: { url: null, avatar: null, description: null },
        pubkey: null,
        abi: null,
        interfaces: { "0x01ffc9a7": null, "0xdeadbeef": null },
        dnszonehash: null,
        version,
      });
      const g = await graph(RECORDS_QUERY, { name: f.name, accelerate });
      expect(g.data.domain.resolve.records).toEqual({
        pubkey: null,
        json: null,
        any: null,
        interfaces: [
          { interfaceId: "0x01ffc9a7", implementer: null },
          { interfaceId: "0xdeadbeef", implementer: null },
        ],
        dnszonehash: null,
        version,
        reverseName: null,
      });
    }
  }, 300_000);
});

describe("an index built with RESOLVER_READS=false (an RPC without past state)", () => {
  it("keeps value-less texts and ABIs unread, and resolution answers them from the chain", async () => {
    const unread = await startIndexer({
      manifestPath: env.devnet.manifestPath,
      labelsServiceUrl: env.labelsUrl,
      plugins: ["subgraph", "basenames", "lineanames", "protocol-acceleration", "ensv2"],
      database: "pglite",
      extraEnv: { RESOLVER_READS: "false" },
    });
    try {
      await unread.process.ready();
      // Resolution answers from an index only once it follows the chains' heads.
      await syncClocks(CHAINS.map(rpcUrl), unread.url);
      const names = namesOnOldResolvers();
      const outcome = { unreadText: 0, unreadAbi: 0, indexOnly: 0 };
      for (const f of names) {
        const asks = [
          ["unreadText", f.texts ? `texts=${Object.keys(f.texts).join(",")}` : undefined],
          ["unreadAbi", "abi=15"],
          ["indexOnly", "addresses=60"],
        ] as const;
        for (const [kind, query] of asks) {
          if (!query) continue;
          const path = `/api/resolve/records/${encodeURIComponent(f.name)}?${query}`;
          const res = await fetch(`${unread.url}${path}`);
          statuses.push(res.status);
          const fast = (await res.json()) as { accelerated: boolean; records: Record<string, unknown> };
          const slow = await get(`${path}&accelerate=false`);
          expect(res.status, f.name).toBe(200);
          expect(fast.records, `${f.name} ${query}`).toEqual(slow.body.records);
          const held = kind === "unreadAbi" ? fast.records.abi !== null : true;
          if (kind === "indexOnly" ? fast.accelerated : held && !fast.accelerated) outcome[kind]++;
        }
      }
      // Names on the old resolvers with texts and ABIs went to the chain; their addresses still come from the index.
      expect(outcome.unreadText).toBeGreaterThan(3);
      expect(outcome.unreadAbi).toBeGreaterThan(0);
      expect(outcome.indexOnly).toBeGreaterThan(names.length * 0.8);
    } finally {
      await unread.stop();
    }
  }, 600_000);
});

describe("ENSv2's PermissionedResolver", () => {
  it("answers pubkey, ABI, interfaces and version alike from the index and the chain, and clears them", async () => {
    const ensv2 = scenario.ensv2 as {
      resolvers: Record<string, string>;
      names: { name: string; status: string; owner?: string; resolver?: string }[];
    };
    const own = new Map(Object.entries(ensv2.resolvers).map(([a, r]) => [r.toLowerCase(), a.toLowerCase()]));
    // A full-profile name already holds an ABI of a lower content type, which a mask asking for several would answer.
    const profiled = new Set(scenario.fullProfiles.map((p) => p.name));
    const f = ensv2.names.find(
      (n) =>
        n.status === "registered" &&
        !profiled.has(n.name) &&
        n.resolver &&
        n.owner &&
        own.get(n.resolver.toLowerCase()) === n.owner.toLowerCase() &&
        nameInputProblem(n.name) === undefined,
    );
    expect(f, "a registered ENSv2 name on its owner's PermissionedResolver").toBeDefined();
    const node = namehash(f!.name);
    const to = f!.resolver!.toLowerCase() as Address;
    const owner = f!.owner!.toLowerCase() as Address;
    const x = toHex(33n, { size: 32 });
    const y = toHex(44n, { size: 32 });
    const cbor = toHex("cbor-abi");
    const implementer = "0x000000000000000000000000000000000000cafe";
    for (const [functionName, args] of [
      ["setPubkey", [node, x, y]],
      ["setABI", [node, 4n, cbor]],
      ["setInterface", [node, "0x01ffc9a7", implementer]],
    ] as const)
      await sendAsFunded(ROOT, owner, to, encodeFunctionData({ abi: ResolverWrite, functionName, args } as never));
    await syncClocksAndWaitRealtime();
    const path = `/api/resolve/records/${encodeURIComponent(f!.name)}?${KIND_QUERY}`;
    const [fast, slow] = [await get(path), await get(`${path}&accelerate=false`)];
    expect(fast.body.accelerated).toBe(true);
    expect(fast.body.records).toEqual(slow.body.records);
    expect(fast.body.records).toMatchObject({
      pubkey: { x, y },
      abi: { contentType: "4", data: cbor },
      interfaces: { "0x01ffc9a7": implementer, "0xdeadbeef": null },
    });

    await sendAsFunded(
      ROOT,
      owner,
      to,
      encodeFunctionData({ abi: ResolverWrite, functionName: "clearRecords", args: [node] }),
    );
    await syncClocksAndWaitRealtime();
    const [clearedFast, clearedSlow] = [await get(path), await get(`${path}&accelerate=false`)];
    expect(clearedFast.body.accelerated).toBe(true);
    expect(clearedFast.body.records).toEqual(clearedSlow.body.records);
    expect(clearedFast.body.records).toMatchObject({ pubkey: null, abi: null, interfaces: { "0x01ffc9a7": null } });
    expect(Number(clearedFast.body.records.version)).toBeGreaterThan(0);
  }, 300_000);
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

  it("is a 400 with the reasons in REST and a GraphQL error in the Omnigraph", async () => {
    const cases: [string, string][] = [
      ["/api/resolve/records/alice.eth?abi=0", "abi must be a content-type mask between 1 and 2^255 - 1"],
      ["/api/resolve/records/alice.eth?abi=json", "abi must be a content-type mask"],
      [`/api/resolve/records/alice.eth?abi=${2n ** 255n}`, "between 1 and 2^255 - 1"],
      ["/api/resolve/records/alice.eth?interfaces=0x123", "each interface id must be 0x followed by 8 hex digits"],
      [
        `/api/resolve/records/alice.eth?interfaces=${Array.from({ length: 21 }, (_, i) => toHex(i, { size: 4 })).join(",")}`,
        "at most 20 interface ids",
      ],
      ["/api/resolve/records/alice.eth?pubkey=yes", "pubkey must be true or false"],
    ];
    for (const [path, reason] of cases) {
      const { status, body } = await get(path);
      expect(status, path).toBe(400);
      expect(body.details.map((d: { message: string }) => d.message).join(" | "), path).toContain(reason);
    }
    const zero = await graph(
      `{ domain(by: { name: "eth" }) { resolve { records { abi(contentTypeMask: 0) { contentType } } } } }`,
      {},
    );
    expect(zero.errors?.[0]?.message).toMatch(/contentTypeMask.*positive bitmask/);
    const badId = await graph(
      `{ domain(by: { name: "eth" }) { resolve { records { interfaces(ids: ["0x12"]) { implementer } } } } }`,
      {},
    );
    expect(badId.errors?.[0]?.message).toMatch(/InterfaceId/);
  });

  it("never met a 5xx", () => {
    expect(statuses.length).toBeGreaterThan(100);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
  });
});
