import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  type Hex,
  http,
  namehash,
  type PublicClient,
  parseAbi,
  zeroAddress,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevnetScenario, type NameFacts, scenarioOf } from "../../devnet/src/index";
import type { Ensv2NameFacts, Ensv2Scenario } from "../../devnet/src/scenario/ensv2-model";
import { sendAs as sendAsOn, syncClocksAndWaitRealtime as syncClocks } from "../../harness/chain-clock";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { indexerOptionsFor, type RunningIndexer, startIndexer } from "../../harness/indexer-harness";
import {
  PERMISSIONED_REGISTRY_INTERFACE,
  PERMISSIONED_RESOLVER_INTERFACE,
  WRAPPER_REGISTRY_INTERFACE,
} from "../../src/api/shared/resolution/ensv2";
import { dnsEncode } from "../../src/lib/dns-wire";
import type { DevnetManifest } from "../../src/namespaces/devnet-manifest";

/*
 * /api/resolve over ENSv2 on the devnet (PLUGINS=subgraph,protocol-acceleration,ensv2): every ENSv2 name of the
 * manifest's `scenario.ensv2` (registered through the registrar, subnames three levels deep, the re-parented registry,
 * expired, reserved, migrated), their wildcard children and the old path of the re-parented registry, answered from
 * the index (accelerated) and forced onchain (`accelerate=false`, through the devnet's UniversalResolverV2), compared
 * with each other, with viem's getEnsAddress/getEnsText given the UniversalResolverV2's address (the client path), and
 * for the scenario's names with the records the scenario wrote. Then the test writes to the real contracts — a
 * wildcard record, the default EVM address with ETH's cleared, an alias, a contenthash, a name reserved with the
 * ENSV1Resolver fallback, an ENSv1 name registered over in ENSv2, primary names pointing at an ENSv2 name — and
 * checks the three answers follow. /api/omnigraph's ENSv2Domain.resolve answers as /api/resolve does.
 */

const SEED = 3;
const NAMES = 30;
const ROOT = 31337;
const BASE = 31338;
const BASE_COIN = 0x80000000n | BigInt(BASE);
const DEFAULT_COIN = 0x80000000n;
const COIN_TYPES = [60n, DEFAULT_COIN, BASE_COIN];
const TEXT_KEYS = ["url", "description", "avatar"];

const Ensv2Registry = parseAbi([
  "function getResolver(string label) view returns (address)",
  "function getSubregistry(string label) view returns (address)",
  "function supportsInterface(bytes4 id) view returns (bool)",
  "function register(string label, address owner, address registry, address resolver, uint256 roleBitmap, uint64 expiry) returns (uint256)",
]);
const Resolver = parseAbi([
  "function supportsInterface(bytes4 id) view returns (bool)",
  "function setText(bytes32 node, string key, string value)",
  "function setAddr(bytes32 node, uint256 coinType, bytes a)",
  "function setContenthash(bytes32 node, bytes hash)",
  "function setAlias(bytes fromName, bytes toName)",
]);
const ReverseRegistrars = parseAbi(["function setName(string name)"]);

let env: DevnetWithLabels;
let manifest: DevnetManifest;
let scenario: DevnetScenario;
let v2: Ensv2Scenario;
let indexer: RunningIndexer;
let root: PublicClient;
const statuses: number[] = [];

const lower = (a: string | undefined | null) => (a ? (a.toLowerCase() as Address) : null);
const rpcUrl = (chainId: number) => manifest.chains[String(chainId)]!.rpcUrl;
const ensv2Contract = (name: string) => lower(manifest.ensv2!.contracts[name]!.address as string)!;
const v1Contract = (name: string) => lower(manifest.datasources.ensroot!.contracts[name]!.address as string)!;
const syncClocksAndWaitRealtime = () =>
  syncClocks(
    Object.keys(manifest.chains).map((id) => rpcUrl(Number(id))),
    indexer.url,
  );
const sendAs = (from: Address, to: Address, data: Hex) =>
  sendAsOn({ rpcUrl: rpcUrl(ROOT), client: root }, { from, to, data, fund: true });

async function api(path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${indexer.url}${path}`);
  statuses.push(res.status);
  return { status: res.status, body: await res.json() };
}

const recordsPath = (name: string, accelerate: boolean) =>
  `/api/resolve/records/${encodeURIComponent(name)}?addresses=${COIN_TYPES.join(",")}&texts=${TEXT_KEYS.join(",")}&name=true&contenthash=true${accelerate ? "" : "&accelerate=false"}`;

beforeAll(async () => {
  env = await startDevnetWithLabels({ seed: SEED, names: NAMES, mineInterval: 1 });
  manifest = env.devnet.manifest;
  scenario = scenarioOf(manifest);
  v2 = scenario.ensv2 as unknown as Ensv2Scenario;
  root = createPublicClient({ transport: http(rpcUrl(ROOT)) }) as PublicClient;
  indexer = await startIndexer(
    indexerOptionsFor(env, { plugins: ["subgraph", "protocol-acceleration", "ensv2"], database: "postgres" }),
  );
  await indexer.process.ready();
  await syncClocksAndWaitRealtime();
}, 900_000);

afterAll(async () => {
  await indexer?.stop();
  await env?.stop();
});

// ---- the chain's own answers ------------------------------------------------------------------------------------

/**
 * LibRegistry.findResolver by eth_call of the registries (the test's own walk, labels as their bytes), with the
 * registries it asked about a label.
 */
async function chainEnsv2Resolver(
  name: string,
): Promise<{ found: { resolver: Address; index: number } | undefined; asked: Address[] }> {
  const labels = name.split(".");
  let registry: Address | null = ensv2Contract("RootRegistry");
  let found: { resolver: Address; index: number } | undefined;
  const asked: Address[] = [];
  for (let index = labels.length - 1; index >= 0 && registry; index--) {
    asked.push(registry);
    const read = (functionName: "getResolver" | "getSubregistry") =>
      root.readContract({ address: registry!, abi: Ensv2Registry, functionName, args: [labels[index]!] });
    const [resolver, subregistry] = await Promise.all([read("getResolver"), read("getSubregistry")]);
    if (resolver !== zeroAddress) found = { resolver: lower(resolver)!, index };
    registry = subregistry === zeroAddress ? null : (lower(subregistry) as Address);
  }
  return { found, asked };
}

/** The client path: viem's getEnsAddress / getEnsText through the devnet's UniversalResolverV2. */
async function viaUniversalResolverV2(name: string) {
  const universalResolverAddress = ensv2Contract("UniversalResolverV2");
  const addresses: Record<string, string | null> = {};
  for (const coinType of COIN_TYPES)
    addresses[coinType.toString()] = lower(await root.getEnsAddress({ name, coinType, universalResolverAddress }));
  const texts: Record<string, string | null> = {};
  for (const key of TEXT_KEYS) texts[key] = await root.getEnsText({ name, key, universalResolverAddress });
  return { addresses, texts };
}

// ---- comparisons ------------------------------------------------------------------------------------------------

interface Compared {
  name: string;
  records: { name: string | null; addresses: Record<string, string | null>; texts: Record<string, string | null> };
  ensv2Resolver: { resolver: Address; index: number } | undefined;
  accelerated: boolean;
}

/** Registries of kind "wrapper": their getResolver reads the NameWrapper, so the index leaves them to the chain. */
const wrapperRegistries = () => new Set(v2.registries.filter((r) => r.kind === "wrapper").map((r) => lower(r.address)));
/** ENSv1's resolvers whose TextChanged carries no value: the index sends their texts to the chain. */
const valuelessResolvers = () =>
  new Set(["LegacyPublicResolver", "PublicResolver"].map((c) => lower(scenario.otherContracts.ensroot![c]!)));

/**
 * The index's and the chain's answers for a name, equal to each other; where ENSv2 has a resolver for the name (or
 * an ancestor), equal to viem's answer through UniversalResolverV2 as well. The index answers unless the walk asks a
 * WrapperRegistry (then the chain does) or a resolver of ENSv1 without text values answers.
 */
async function compare(name: string): Promise<Compared> {
  const [fast, slow] = [await api(recordsPath(name, true)), await api(recordsPath(name, false))];
  expect(fast.status, name).toBe(200);
  expect(slow.status, name).toBe(200);
  expect(fast.body.records, `${name}: accelerated = onchain`).toEqual(slow.body.records);
  expect(slow.body.accelerated, name).toBe(false);
  const { found, asked } = await chainEnsv2Resolver(name);
  const wrappers = wrapperRegistries();
  if (asked.some((r) => wrappers.has(r)))
    expect(fast.body.accelerated, `${name}: through a WrapperRegistry`).toBe(false);
  else if (!found || !valuelessResolvers().has(found.resolver))
    expect(fast.body.accelerated, `${name}: answered from the index`).toBe(true);
  if (found) {
    const viem = await viaUniversalResolverV2(name);
    const ours = { addresses: { ...fast.body.records.addresses }, texts: fast.body.records.texts };
    // A resolver older than multicoin answers addr(node) only: we ask it that for coin type 60, the UniversalResolver
    // passes addr(node, 60) through (docs/api.md, "ENSv2 names").
    if (found.resolver === lower(scenario.otherContracts.ensroot!.LegacyPublicResolver!)) {
      delete ours.addresses["60"];
      delete viem.addresses["60"];
    }
    expect(ours, `${name}: = viem`).toEqual(viem);
  }
  return { name, records: fast.body.records, ensv2Resolver: found, accelerated: fast.body.accelerated };
}

/**
 * What the scenario wrote for an ENSv2 name (the resolver's records are of the name's own node); a name resolving
 * through the ENSv1 fallback (`v1Fallbacks`) has its ENSv1 records.
 */
function scenarioRecords(f: Ensv2NameFacts) {
  const fallback = v2.v1Fallbacks?.find((b) => b.name === f.name);
  const v1 = fallback && scenario.names.find((n) => n.name === f.name && n.chainId === ROOT);
  const live = f.status !== "expired" && f.resolver !== undefined;
  const addr = fallback ? lower(fallback.addr) : live && f.addr ? lower(f.addr) : null;
  const texts = fallback ? v1?.texts : live ? f.texts : undefined;
  // The one ENSv2 name with a full profile has a contenthash; no other ENSv2 name has one.
  const profile = scenario.fullProfiles.find((p) => p.version === "ENSv2" && p.name === f.name);
  return {
    contenthash: !fallback && live && profile ? profile.contenthash.bytes : null,
    // PermissionedResolver answers an EVM chain's empty record with the default address: none is set here.
    addresses: { "60": addr, [DEFAULT_COIN.toString()]: null, [BASE_COIN.toString()]: null },
    texts: Object.fromEntries(TEXT_KEYS.map((k) => [k, texts?.[k] || null])),
  };
}

const counts = { names: 0, withRecords: 0, viem: 0, extra: 0, onchainOnly: 0 };

describe("records of ENSv2 names", () => {
  it("every scenario name: accelerated = onchain = UniversalResolverV2 (viem) = the scenario's records", async () => {
    await syncClocksAndWaitRealtime();
    expect(v2.names.length).toBeGreaterThanOrEqual(15);
    for (const via of ["registrar", "subname", "reserved", "registry", "migrated-unwrapped"] as const)
      expect(
        v2.names.some((f) => f.via === via),
        via,
      ).toBe(true);
    expect(v2.names.some((f) => f.status === "expired")).toBe(true);
    expect(v2.names.some((f) => f.labels.length >= 4)).toBe(true);
    for (const f of v2.names) {
      const c = await compare(f.name);
      // The scenario does not model name records (a resolver kept from ENSv1 may hold one): the rest is compared.
      const { name: _name, ...records } = c.records;
      expect(records, `${f.name} (${f.via}, ${f.status})`).toEqual(scenarioRecords(f));
      counts.names++;
      if (c.ensv2Resolver) counts.viem++;
      if (!c.accelerated) counts.onchainOnly++;
      if (c.records.addresses["60"] || Object.values(c.records.texts).some((v) => v !== null)) counts.withRecords++;
    }
    expect(counts.withRecords, "names with records").toBeGreaterThanOrEqual(2);
    console.log(
      `[ensv2-resolve] ${counts.names} names: accelerated = onchain = scenario (${counts.names - counts.onchainOnly} answered by the index, ${counts.onchainOnly} by the chain: through a WrapperRegistry or a valueless ENSv1 resolver); ${counts.viem} with an ENSv2 resolver also = viem getEnsAddress/getEnsText through UniversalResolverV2; ${counts.withRecords} have records`,
    );
  }, 600_000);

  it("wildcard children, the re-parented registry's old path and unknown names agree too", async () => {
    const deep = v2.names.filter((f) => f.labels.length === 4);
    const underParents = (d: Ensv2NameFacts) =>
      v2.names
        .filter((s) => s.labels.length === 3 && s.labels[1] === d.labels[2])
        .map((s) => `${d.labels[0]}.${s.name}`);
    const extra = [
      ...new Set([
        ...v2.names.map((f) => `wild.${f.name}`),
        ...deep.flatMap(underParents),
        "nobody-in-ensv2-or-ensv1.eth",
        "x.nobody-in-ensv2.eth",
      ]),
    ];
    // The old path of the re-parented registry is among them: no longer canonical, its parent still resolves.
    expect(extra.filter((n) => !v2.names.some((f) => f.name === n)).length).toBeGreaterThan(v2.names.length);
    let withResolver = 0;
    for (const name of extra) {
      const c = await compare(name);
      if (c.ensv2Resolver && c.ensv2Resolver.index > 0) withResolver++;
      counts.extra++;
    }
    expect(withResolver, "names answered by an ancestor's PermissionedResolver (ENSIP-10)").toBeGreaterThan(3);
    console.log(`[ensv2-resolve] ${extra.length} more names (wildcards, old paths, unknown): accelerated = onchain`);
  }, 600_000);

  it("the contracts are what the index assumes: PermissionedResolver, PermissionedRegistry, WrapperRegistry", async () => {
    const supports = (address: Address, id: Hex) =>
      root.readContract({ address, abi: Resolver, functionName: "supportsInterface", args: [id] });
    for (const r of Object.values(v2.resolvers)) expect(await supports(r, PERMISSIONED_RESOLVER_INTERFACE)).toBe(true);
    for (const reg of v2.registries) {
      expect(await supports(reg.address, PERMISSIONED_REGISTRY_INTERFACE), reg.address).toBe(true);
      expect(await supports(reg.address, WRAPPER_REGISTRY_INTERFACE), reg.address).toBe(reg.kind === "wrapper");
    }
    expect(v2.registries.some((r) => r.kind === "wrapper")).toBe(true);
    expect(await supports(ensv2Contract("ENSV1Resolver"), PERMISSIONED_RESOLVER_INTERFACE)).toBe(false);
  });
});

// ---- writes to the real contracts ---------------------------------------------------------------------------------

describe("after writes to the contracts", () => {
  /** A registrar name with records on its owner's resolver and no subregistry. */
  let a: Ensv2NameFacts;
  let resolverOwner: Address;
  let holder: Address;
  let deployer: Address;
  let reservedV1: NameFacts;
  let overriddenV1: NameFacts;

  beforeAll(async () => {
    a = v2.names.find((f) => f.via === "registrar" && f.addr && f.texts?.url && !f.subregistry && f.resolver)!;
    expect(a, "a registrar name with records").toBeDefined();
    resolverOwner = Object.entries(v2.resolvers).find(([, r]) => lower(r) === lower(a.resolver))![0] as Address;
    holder = lower(a.addr)!;
    deployer = v2.roleChanges.find(
      (c) => c.on === "root" && lower(c.contract) === ensv2Contract("ETHRegistry"),
    )!.account;
    // ENSv1 .eth names with texts on a resolver whose TextChanged carries the value (the index answers them).
    const valueless = new Set(
      ["LegacyPublicResolver", "PublicResolver"].map((c) => lower(scenario.otherContracts.ensroot![c]!)),
    );
    const v1Names = scenario.names.filter(
      (f) =>
        f.chainId === ROOT &&
        f.labels.length === 2 &&
        f.labels[1] === "eth" &&
        !f.deleted &&
        (TEXT_KEYS.some((k) => f.texts?.[k]) || f.addr) &&
        f.resolver &&
        !valueless.has(lower(f.resolver)) &&
        namehash(f.name) === f.node &&
        !v2.names.some((g) => g.name === f.name),
    );
    expect(v1Names.length, "ENSv1 .eth names with records").toBeGreaterThanOrEqual(2);
    [reservedV1, overriddenV1] = [v1Names[0]!, v1Names[1]!];

    const resolver = lower(a.resolver)!;
    const node = namehash(a.name);
    const write = (functionName: string, args: unknown[], to: Address = resolver, from = resolverOwner) =>
      sendAs(from, to, encodeFunctionData({ abi: [...Resolver, ...Ensv2Registry], functionName, args } as never));
    // A record of a child the registry does not have: the ancestor's PermissionedResolver answers it (resolve()).
    await write("setText", [namehash(`wild.${a.name}`), "url", "https://wild.example/"]);
    // The default EVM address, and ETH's cleared: addr(node, 60) and Base's coin type fall back to it.
    await write("setAddr", [node, DEFAULT_COIN, holder]);
    await write("setAddr", [node, 60n, "0x"]);
    await write("setContenthash", [
      node,
      "0xe3010170122029f2d17be6139079dc48696d1f582a8530eb9805b561eda517e22a892c7e3f1f",
    ]);
    // mirror.<a> answers as <a> (its node rewritten by the alias).
    await write("setAlias", [dnsEncode(`mirror.${a.name}`), dnsEncode(a.name)]);
    // An ENSv1 name reserved in ENSv2 with the ENSV1Resolver fallback (premigration); another registered over in ENSv2.
    const year = BigInt(Math.floor(Date.now() / 1000) + 365 * 86_400 * 2);
    const eth = ensv2Contract("ETHRegistry");
    await write(
      "register",
      [reservedV1.labels[0], zeroAddress, zeroAddress, ensv2Contract("ENSV1Resolver"), 0n, year],
      eth,
      deployer,
    );
    await write("register", [overriddenV1.labels[0], resolverOwner, zeroAddress, resolver, 0n, year], eth, deployer);
    // Primary names: the holder of <a>'s address names it in addr.reverse and as its default name.
    await sendAs(
      holder,
      v1Contract("ReverseRegistrar"),
      encodeFunctionData({ abi: ReverseRegistrars, functionName: "setName", args: [a.name] }),
    );
    await sendAs(
      holder,
      v1Contract("DefaultReverseRegistrar"),
      encodeFunctionData({ abi: ReverseRegistrars, functionName: "setName", args: [a.name] }),
    );
    await syncClocksAndWaitRealtime();
  }, 600_000);

  it("a wildcard record, the default address, a contenthash and an alias show in all three answers", async () => {
    const own = await compare(a.name);
    expect(own.records.addresses).toEqual({
      "60": holder,
      [DEFAULT_COIN.toString()]: holder,
      [BASE_COIN.toString()]: holder,
    });
    expect(own.records.texts.url).toBe(a.texts!.url);
    const { body } = await api(`/api/resolve/records/${a.name}?contenthash=true`);
    expect(body.records.contenthash).toMatch(/^0xe3010170/);
    const slow = await api(`/api/resolve/records/${a.name}?contenthash=true&accelerate=false`);
    expect(slow.body.records).toEqual(body.records);

    const wild = await compare(`wild.${a.name}`);
    expect(wild.ensv2Resolver).toEqual({ resolver: lower(a.resolver), index: 1 });
    expect(wild.records.texts.url).toBe("https://wild.example/");
    expect(wild.records.addresses["60"]).toBeNull();

    const mirror = await compare(`mirror.${a.name}`);
    expect(mirror.records.texts).toEqual(own.records.texts);
    expect(mirror.records.addresses).toEqual(own.records.addresses);
  }, 300_000);

  it("ENSv1 answers for a name reserved with ENSV1Resolver; ENSv2 answers for an ENSv1 name registered in ENSv2", async () => {
    const reserved = await compare(reservedV1.name);
    expect(reserved.ensv2Resolver?.resolver).toBe(ensv2Contract("ENSV1Resolver"));
    const v1Records = Object.fromEntries(TEXT_KEYS.map((k) => [k, reservedV1.texts?.[k] ?? null]));
    expect(reserved.records.texts).toEqual(v1Records);
    expect(reserved.records.addresses["60"]).toBe(lower(reservedV1.addr));

    const overridden = await compare(overriddenV1.name);
    expect(overridden.ensv2Resolver?.resolver).toBe(lower(a.resolver));
    // ENSv2 has the name: its resolver holds no records for it, whatever ENSv1 still says.
    expect(TEXT_KEYS.some((k) => overriddenV1.texts?.[k]) || overriddenV1.addr).toBeTruthy();
    expect(Object.values(overridden.records.texts)).toEqual(TEXT_KEYS.map(() => null));
    expect(overridden.records.addresses["60"]).toBeNull();
    console.log(
      `[ensv2-resolve] precedence: ${reservedV1.name} (reserved with ENSV1Resolver) answers ENSv1's records; ${overriddenV1.name} (registered in ENSv2) answers ENSv2's (none)`,
    );
  }, 300_000);

  it("an address whose primary name is an ENSv2 name: verified forward through ENSv2, on the root chain and Base", async () => {
    const hasBaseName = Object.keys(scenario.primaryNames.base).some((k) => lower(k) === holder);
    for (const accelerate of [true, false]) {
      const { status, body } = await api(
        `/api/resolve/primary-names/${holder}?chainIds=${ROOT},${BASE}${accelerate ? "" : "&accelerate=false"}`,
      );
      expect(status).toBe(200);
      expect(body.accelerated).toBe(accelerate);
      expect(body.names[String(ROOT)], `root chain (${accelerate})`).toBe(a.name);
      // The default name counts on Base where the holder has no Base name: addr(node, Base) falls back to default.
      if (!hasBaseName) expect(body.names[String(BASE)], `Base (${accelerate})`).toBe(a.name);
    }
    // Another account naming <a> as its default name: <a> does not resolve to it.
    const named = new Set(Object.keys(scenario.primaryNames.root).map(lower));
    const other = lower(scenario.accounts.find((x) => lower(x) !== holder && !named.has(lower(x))))!;
    expect(other, "an account without a root-chain primary name").toBeTruthy();
    await sendAs(
      other,
      v1Contract("DefaultReverseRegistrar"),
      encodeFunctionData({ abi: ReverseRegistrars, functionName: "setName", args: [a.name] }),
    );
    await syncClocksAndWaitRealtime();
    for (const accelerate of [true, false]) {
      const { body } = await api(`/api/resolve/primary-name/${other}/${ROOT}${accelerate ? "" : "?accelerate=false"}`);
      expect(body, `${other} (${accelerate})`).toEqual({ name: null, accelerated: accelerate });
    }
  }, 300_000);

  it("/api/omnigraph's ENSv2Domain.resolve answers as /api/resolve", async () => {
    const names = v2.names.filter((f) => f.status === "registered").map((f) => f.name);
    for (const name of names) {
      const res = await fetch(`${indexer.url}/api/omnigraph`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          query: `query($name: InterpretedName!) { domain(by: { name: $name }) { __typename resolve { acceleration { attempted } records { texts(keys: ${JSON.stringify(TEXT_KEYS)}) { key value } addresses(coinTypes: [60]) { address } contenthash } } } }`,
          variables: { name },
        }),
      });
      const { data, errors } = (await res.json()) as any;
      expect(errors, name).toBeUndefined();
      expect(data.domain.__typename, name).toBe("ENSv2Domain");
      const rest = await api(
        `/api/resolve/records/${encodeURIComponent(name)}?addresses=60&texts=${TEXT_KEYS.join(",")}&contenthash=true`,
      );
      const r = data.domain.resolve;
      // The index answers both, except through a WrapperRegistry (then the chain answers both).
      expect(r.acceleration.attempted, name).toBe(rest.body.accelerated);
      expect(Object.fromEntries(r.records.texts.map((t: any) => [t.key, t.value])), name).toEqual(
        rest.body.records.texts,
      );
      expect(r.records.addresses[0].address, name).toBe(rest.body.records.addresses["60"]);
      expect(r.records.contenthash, name).toBe(rest.body.records.contenthash);
    }
  }, 300_000);
});

describe("bad input", () => {
  it("is a 400 with the reason, never a 5xx", async () => {
    const name = v2.names.find((f) => f.labels.length === 4)!.name;
    const cases: [string, string][] = [
      [`/api/resolve/records/${name.toUpperCase()}`, "normalized"],
      [`/api/resolve/records/${name.replace(".", "..")}`, "not a valid ENS name"],
      [`/api/resolve/records/[${"AB".repeat(32)}].${name}`, "normalized"],
      [`/api/resolve/records/${name}?contenthash=maybe`, "contenthash must be true or false"],
      [`/api/resolve/records/${name}?addresses=60,x`, "each coin type must be a non-negative integer"],
    ];
    for (const [path, reason] of cases) {
      const { status, body } = await api(path);
      expect(status, path).toBe(400);
      expect(body.details.map((d: { message: string }) => d.message).join(" | "), path).toContain(reason);
    }
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    console.log(`[ensv2-resolve] ${statuses.length} requests, none a 5xx`);
  });
});
