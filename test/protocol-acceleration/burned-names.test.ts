import {
  type Abi,
  type Address,
  createPublicClient,
  decodeFunctionResult,
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
import { devnetAbis, type NameFacts, scenarioOf } from "../../devnet/src/index";
import { fullProfileCalls, fullProfileOf } from "../../devnet/src/scenario/full-profile";
import { sendAs, syncClocksAndWaitRealtime } from "../../harness/chain-clock";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { indexerOptionsFor, type RunningIndexer, startIndexer } from "../../harness/indexer-harness";
import { dnsEncode } from "../../src/lib/dns-wire";
import { nameInputProblem } from "../../src/lib/name-input";
import type { DevnetManifest } from "../../src/namespaces/devnet-manifest";

/*
 * Burned names on ENS's registry with fallback (issue 66). `ENSRegistryWithFallback` stores an owner of 0x0 as its own
 * address: `owner(node)` reads 0x0, yet `recordExists(node)` stays true, so `resolver(node)` keeps answering from the
 * new registry's record (never from the old registry's again) and a wallet resolving the name gets the records its
 * resolver still holds. The test gives names a full profile (every record kind, the ETH address a fresh account), then
 * burns them: by `setOwner(node, 0)` and by the parent's `setSubnodeOwner(parent, label, 0)`, with the resolver kept
 * and with it cleared before the burn, on names the new registry created and on names migrated from the old
 * registry (which still holds a resolver for them). Most burns happen before the indexer starts (the backfill
 * indexes them), the last ones while it follows the chain. Every burned name is then resolved from the index
 * (accelerated) and compared with the chain: the same route forced onchain (`accelerate=false`, the
 * UniversalResolver), and this test's own eth_calls through UniversalResolverV2 (ENSv2 first, as clients ask) and
 * ENSv1's UniversalResolver; and its fresh account's name references list the name exactly when the chain's ETH
 * address record of the name is that account.
 */

const ROOT = 31337;
const COIN_TYPES = [60n, 0n, 2n, 501n, 0x80000000n | 10n, 0x80000000n | 8453n];
const TEXT_KEYS = ["description", "avatar", "url", "com.twitter", "never-set"];
const INTERFACES = ["0x01ffc9a7", "0xdeadbeef"] as const;
const KINDS = `addresses=${COIN_TYPES.join(",")}&texts=${TEXT_KEYS.join(",")}&name=true&contenthash=true&pubkey=true&abi=15&interfaces=${INTERFACES.join(",")}&dnszonehash=true&version=true`;

const RegistryAbi = parseAbi([
  "function owner(bytes32 node) view returns (address)",
  "function resolver(bytes32 node) view returns (address)",
  "function recordExists(bytes32 node) view returns (bool)",
  "function setOwner(bytes32 node, address owner)",
  "function setSubnodeOwner(bytes32 node, bytes32 label, address owner) returns (bytes32)",
  "function setSubnodeRecord(bytes32 node, bytes32 label, address owner, address resolver, uint64 ttl)",
  "function setResolver(bytes32 node, address resolver)",
]);
const ResolverRead = parseAbi([
  "function addr(bytes32 node, uint256 coinType) view returns (bytes)",
  "function text(bytes32 node, string key) view returns (string)",
  "function name(bytes32 node) view returns (string)",
  "function contenthash(bytes32 node) view returns (bytes)",
  "function pubkey(bytes32 node) view returns (bytes32 x, bytes32 y)",
  "function ABI(bytes32 node, uint256 contentTypes) view returns (uint256, bytes)",
  "function supportsInterface(bytes4 id) view returns (bool)",
  "function resolve(bytes name, bytes data) view returns (bytes)",
]);
const UniversalV2 = parseAbi([
  "function resolve(bytes name, bytes data) view returns (bytes, address)",
  "error ResolverNotFound(bytes name)",
]);
const UniversalV1 = parseAbi(["function findResolver(bytes name) view returns (address, bytes32, uint256)"]);

/** How a case burns its name, and whether it clears the resolver first. */
type Burn = "setOwner" | "setSubnodeOwner";
interface Case {
  f: NameFacts;
  burn: Burn;
  clearResolver: boolean;
  /** Migrated from the old registry, which still names a resolver for it. */
  migrated: boolean;
  /** The fresh account its ETH address record names. */
  account: Address;
  /** Migrated names: the fresh account the old registry's resolver names for it (which the chain no longer reads). */
  oldAccount?: Address;
  /** Burned while the indexer follows the chain (else before it starts). */
  realtime: boolean;
}

let env: DevnetWithLabels;
let manifest: DevnetManifest;
let client: PublicClient;
let indexer: RunningIndexer;
const cases: Case[] = [];

const lower = (a: string) => a.toLowerCase() as Address;
const rootUrl = () => manifest.chains[String(ROOT)]!.rpcUrl;
const rootContract = (name: string) => lower(manifest.datasources.ensroot!.contracts[name]!.address as string);
const send = (from: Address, to: Address, abi: Abi, functionName: string, args: unknown[]) =>
  sendAs(
    { rpcUrl: rootUrl(), client },
    { from, to, data: encodeFunctionData({ abi, functionName, args } as never), fund: true },
  );
const read = <T>(address: Address, abi: Abi, functionName: string, args: unknown[]) =>
  client.readContract({ address, abi, functionName, args } as never) as Promise<T>;
const isEoa = async (a: Address) => a !== zeroAddress && ((await client.getCode({ address: a })) ?? "0x") === "0x";
let fresh = 0;
const freshAccount = () => lower(`0x${(0xb0e1d000 + ++fresh).toString(16)}${"ab".repeat(16)}`);
const parentNode = (f: NameFacts) => namehash(f.labels.slice(1).join("."));

/** Root-chain scenario names the new registry holds for an account (so the account can burn them). */
async function candidates() {
  const registry = rootContract("Registry");
  const usable: { f: NameFacts; owner: Address; parentOwner: Address | null }[] = [];
  for (const f of scenarioOf(manifest).names) {
    if (f.chainId !== ROOT || f.deleted || nameInputProblem(f.name) !== undefined || namehash(f.name) !== f.node)
      continue;
    // Unmigrated old-registry names read their old owner through the fallback: the new registry has no record.
    if (!(await read<boolean>(registry, RegistryAbi, "recordExists", [f.node]))) continue;
    const owner = lower(await read<Address>(registry, RegistryAbi, "owner", [f.node]));
    if (!(await isEoa(owner))) continue;
    const parentOwner = lower(await read<Address>(registry, RegistryAbi, "owner", [parentNode(f)]));
    usable.push({ f, owner, parentOwner: (await isEoa(parentOwner)) ? parentOwner : null });
  }
  return usable;
}

/**
 * A subname of `parent` migrated as ENS's 2020 migration left them: the old registry names it with the 2019
 * PublicResolver, which holds an ETH address (`oldAccount`) and a url for it, then the new registry creates it (the
 * old registry's record stays, ignored by the chain from then). The account takes `parent` in the old registry first
 * (from the old `.eth` owner) so it can create the subname there.
 */
async function migratedSubname(
  parent: NameFacts,
  owner: Address,
  label: string,
  oldAccount: Address,
): Promise<NameFacts> {
  const old = rootContract("RegistryOld");
  const ethOwner = lower(await read<Address>(old, RegistryAbi, "owner", [namehash("eth")]));
  if ((await read<Address>(old, RegistryAbi, "owner", [parent.node])).toLowerCase() !== owner)
    await send(ethOwner, old, RegistryAbi, "setSubnodeOwner", [namehash("eth"), labelhash(parent.labels[0]!), owner]);
  const legacy = lower(scenarioOf(manifest).otherContracts.ensroot!.LegacyPublicResolver!);
  await send(owner, old, RegistryAbi, "setSubnodeRecord", [parent.node, labelhash(label), owner, legacy, 0n]);
  const node = namehash(`${label}.${parent.name}`);
  const legacyAbi = devnetAbis().LegacyPublicResolver as Abi;
  await send(owner, legacy, legacyAbi, "setAddr", [node, oldAccount]);
  await send(owner, legacy, legacyAbi, "setText", [node, "url", "https://old-registry.example/"]);
  await send(owner, rootContract("Registry"), RegistryAbi, "setSubnodeOwner", [parent.node, labelhash(label), owner]);
  const name = `${label}.${parent.name}`;
  expect(lower(await read<Address>(old, RegistryAbi, "resolver", [namehash(name)]))).toBe(legacy);
  return { name, labels: [label, ...parent.labels], node: namehash(name), chainId: ROOT, via: "test-migrated" };
}

/** Gives `c`'s name the full profile on the ModernResolver (every record kind), as its owner. */
async function writeProfile(c: Case, owner: Address) {
  const modern = lower(scenarioOf(manifest).otherContracts.ensroot!.ModernResolver!);
  const modernAbi = devnetAbis().ModernResolver as Abi;
  await send(owner, rootContract("Registry"), RegistryAbi, "setResolver", [c.f.node, modern]);
  const profile = fullProfileOf(c.f.name, ROOT, "ENSv1", c.account, modern);
  for (const call of fullProfileCalls(c.f.node, profile))
    await send(owner, modern, modernAbi, call.functionName, call.args);
}

async function burn(c: Case, owner: Address, parentOwner: Address | null) {
  const registry = rootContract("Registry");
  if (c.clearResolver) await send(owner, registry, RegistryAbi, "setResolver", [c.f.node, zeroAddress]);
  if (c.burn === "setOwner") await send(owner, registry, RegistryAbi, "setOwner", [c.f.node, zeroAddress]);
  else
    await send(parentOwner!, registry, RegistryAbi, "setSubnodeOwner", [
      parentNode(c.f),
      labelhash(c.f.labels[0]!),
      zeroAddress,
    ]);
}

// ---- the chain's answers, through the UniversalResolvers ------------------------------------------------------------

/**
 * One resolver call for `name` as a client makes it: UniversalResolverV2's `resolve` (ENSv2 first; its ENSV1Resolver
 * answers for ENSv1 names ENSv2 points at it), and where ENSv2 has no resolver for the name, ENSv1's UniversalResolver
 * `findResolver` and the resolver found (its own name only, unless it is an ENSIP-10 extended resolver). Undefined
 * where the chain has no answer (no resolver, a revert).
 */
async function chainCall<T>(name: string, functionName: string, args: unknown[]): Promise<T | undefined> {
  const dns = dnsEncode(name);
  const data = encodeFunctionData({ abi: ResolverRead, functionName, args } as never);
  const decode = (raw: Hex) =>
    decodeFunctionResult({ abi: ResolverRead, functionName, args, data: raw } as never) as unknown as T;
  const universalV2 = lower(manifest.ensv2!.contracts.UniversalResolverV2!.address as string);
  try {
    const [raw] = await read<[Hex, Address]>(universalV2, UniversalV2, "resolve", [dns, data]);
    return decode(raw);
  } catch (error) {
    if (!String((error as Error).message).includes("ResolverNotFound")) return undefined;
  }
  const [resolver, , offset] = await read<[Address, Hex, bigint]>(
    rootContract("UniversalResolver"),
    UniversalV1,
    "findResolver",
    [dns],
  );
  if (resolver === zeroAddress) return undefined;
  try {
    if (offset === 0n) return decode((await client.call({ to: resolver, data })).data ?? "0x");
    if (!(await read<boolean>(resolver, ResolverRead, "supportsInterface", ["0x9061b923"]))) return undefined;
    return decode(await read<Hex>(resolver, ResolverRead, "resolve", [dns, data]));
  } catch {
    return undefined;
  }
}

const orNull = (hex: Hex | undefined) => (!hex || hex === "0x" ? null : lower(hex));
const isEvm = (c: bigint) => c === 60n || (c >= 0x80000000n && c < 0x100000000n);

/** The records the REST route answers, read from the chain (interfaces and the version are compared onchain-route only). */
async function chainRecords(name: string) {
  const node = namehash(name);
  const addresses: Record<string, string | null> = {};
  for (const c of COIN_TYPES) {
    const raw = orNull(await chainCall<Hex>(name, "addr", [node, c]));
    addresses[c.toString()] = raw && isEvm(c) && BigInt(raw) === 0n ? null : raw;
  }
  const texts: Record<string, string | null> = {};
  for (const key of TEXT_KEYS) texts[key] = (await chainCall<string>(name, "text", [node, key])) || null;
  const pubkey = await chainCall<readonly [Hex, Hex]>(name, "pubkey", [node]);
  const abi = await chainCall<readonly [bigint, Hex]>(name, "ABI", [node, 15n]);
  return {
    name: (await chainCall<string>(name, "name", [node])) || null,
    addresses,
    texts,
    contenthash: orNull(await chainCall<Hex>(name, "contenthash", [node])),
    pubkey: pubkey && (BigInt(pubkey[0]) !== 0n || BigInt(pubkey[1]) !== 0n) ? { x: pubkey[0], y: pubkey[1] } : null,
    abi: abi && abi[0] !== 0n ? { contentType: abi[0].toString(), data: abi[1] } : null,
  };
}

async function records(name: string, accelerate: boolean) {
  const res = await fetch(
    `${indexer.url}/api/resolve/records/${encodeURIComponent(name)}?${KINDS}${accelerate ? "" : "&accelerate=false"}`,
  );
  expect(res.status, name).toBe(200);
  return (await res.json()) as { accelerated: boolean; records: Record<string, unknown> };
}

/** The nodes of the names whose ETH address record names `account`, by the index. */
async function referencedNodes(account: Address): Promise<string[]> {
  const res = await fetch(`${indexer.url}/api/resolve/name-references/${account}?coinType=60&limit=100`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { references: { domainId: string }[] }).references.map((r) => r.domainId);
}

// ---- setup: pick, profile and burn ---------------------------------------------------------------------------------

beforeAll(async () => {
  env = await startDevnetWithLabels({ seed: 66, names: 40, mineInterval: 1 });
  manifest = env.devnet.manifest;
  client = createPublicClient({ transport: http(rootUrl()) }) as PublicClient;

  // Subname burns first, so that no 2LD burn takes a parent they need; one 2LD holds the migrated subnames.
  const pool = await candidates();
  const taken = new Set<string>();
  const take = (found: (typeof pool)[number] | undefined, what: string) => {
    if (!found) throw new Error(`the devnet has no name for ${what}`);
    taken.add(found.f.node);
    return found;
  };
  const subname = () =>
    take(
      pool.find((p) => !taken.has(p.f.node) && p.parentOwner !== null && !taken.has(parentNode(p.f))),
      "a subname burn",
    );
  const parentsInUse = () => new Set(pool.filter((p) => taken.has(p.f.node)).map((p) => parentNode(p.f)));
  const secondLevel = () =>
    take(
      pool.find((p) => !taken.has(p.f.node) && p.f.labels.length === 2 && !parentsInUse().has(p.f.node)),
      "a 2LD burn",
    );
  const plan: (Omit<Case, "f" | "account" | "migrated"> & { name: "2ld" | "subname" | "migrated" })[] = [
    { name: "subname", burn: "setSubnodeOwner", clearResolver: false, realtime: false },
    { name: "subname", burn: "setSubnodeOwner", clearResolver: true, realtime: false },
    { name: "2ld", burn: "setOwner", clearResolver: false, realtime: false },
    { name: "2ld", burn: "setOwner", clearResolver: true, realtime: false },
    { name: "migrated", burn: "setOwner", clearResolver: false, realtime: false },
    { name: "migrated", burn: "setSubnodeOwner", clearResolver: true, realtime: false },
    { name: "2ld", burn: "setOwner", clearResolver: false, realtime: true },
    { name: "migrated", burn: "setSubnodeOwner", clearResolver: false, realtime: true },
    { name: "migrated", burn: "setOwner", clearResolver: true, realtime: true },
  ];
  const owners = new Map<string, { owner: Address; parentOwner: Address | null }>();
  const picked = plan.map((p) => (p.name === "subname" ? subname() : p.name === "2ld" ? secondLevel() : null));
  const home = secondLevel();
  let migratedCount = 0;
  for (const [i, p] of plan.entries()) {
    const { name, ...rest } = p;
    const oldAccount = name === "migrated" ? freshAccount() : undefined;
    const found: { f: NameFacts; owner: Address; parentOwner: Address | null } =
      picked[i] ??
      (await migratedSubname(home.f, home.owner, `burnt${++migratedCount}`, oldAccount!).then((f) => ({
        f,
        owner: home.owner,
        parentOwner: home.owner,
      })));
    const c: Case = { ...rest, migrated: name === "migrated", f: found.f, account: freshAccount(), oldAccount };
    cases.push(c);
    owners.set(c.f.node, { owner: found.owner, parentOwner: found.parentOwner });
    await writeProfile(c, found.owner);
  }
  const burnAll = async (realtime: boolean) => {
    for (const c of cases.filter((x) => x.realtime === realtime)) {
      const { owner, parentOwner } = owners.get(c.f.node)!;
      await burn(c, owner, parentOwner);
      // The chain's own view: owner 0x0, and the new registry's record still there.
      expect(await read<Address>(rootContract("Registry"), RegistryAbi, "owner", [c.f.node])).toBe(zeroAddress);
      expect(await read<boolean>(rootContract("Registry"), RegistryAbi, "recordExists", [c.f.node])).toBe(true);
    }
  };
  await burnAll(false);

  indexer = await startIndexer(
    indexerOptionsFor(env, { plugins: ["subgraph", "protocol-acceleration", "ensv2"], database: "postgres" }),
  );
  await indexer.process.ready();
  const urls = Object.values(manifest.chains).map((c) => c.rpcUrl);
  await syncClocksAndWaitRealtime(urls, indexer.url);
  await burnAll(true);
  await syncClocksAndWaitRealtime(urls, indexer.url);
}, 900_000);

afterAll(async () => {
  await indexer?.stop();
  await env?.stop();
});

const describeCase = (c: Case) =>
  `${c.f.name} (${c.burn}${c.clearResolver ? ", resolver cleared first" : ", resolver kept"}${c.migrated ? ", migrated" : ""}${c.realtime ? ", realtime" : ", backfill"})`;

describe("a name burned to 0x0 in the registry with fallback", () => {
  it("resolves from the index exactly as the chain answers, every record kind", async () => {
    let withAddress = 0;
    for (const c of cases) {
      const [fast, slow] = [await records(c.f.name, true), await records(c.f.name, false)];
      const chain = await chainRecords(c.f.name);
      expect(fast.accelerated, describeCase(c)).toBe(true);
      expect(slow.accelerated).toBe(false);
      expect(fast.records, `${describeCase(c)}: index against the onchain route`).toEqual(slow.records);
      expect(fast.records, `${describeCase(c)}: index against eth_call`).toMatchObject(chain);
      // A kept resolver still answers the profile written before the burn; a cleared one leaves the name without it.
      expect(chain.addresses["60"], describeCase(c)).toBe(c.clearResolver ? null : c.account);
      if (chain.addresses["60"]) withAddress++;
      const kinds = Object.entries(fast.records)
        .filter(([, v]) => v !== null && !(typeof v === "object" && Object.values(v!).every((x) => x === null)))
        .map(([k]) => k);
      console.log(
        `[burned-names] ${describeCase(c)}: index = chain; records set: ${kinds.length ? kinds.join(", ") : "none"}`,
      );
    }
    expect(withAddress).toBe(cases.filter((c) => !c.clearResolver).length);
  }, 300_000);

  it("stays among its address's name references exactly while the chain's ETH address record names that address", async () => {
    for (const c of cases) {
      const chainAddress = orNull(await chainCall<Hex>(c.f.name, "addr", [c.f.node, 60n]));
      const listed = await referencedNodes(c.account);
      expect(listed, describeCase(c)).toEqual(chainAddress === c.account ? [c.f.node] : []);
      // The old registry's resolver still names `oldAccount`, but the chain no longer asks it.
      if (c.oldAccount) expect(await referencedNodes(c.oldAccount), describeCase(c)).toEqual([]);
      console.log(`[burned-names] ${describeCase(c)}: name references of ${c.account}: [${listed.join(", ")}]`);
    }
  }, 120_000);
});
