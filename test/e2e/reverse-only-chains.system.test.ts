import { ens_normalize } from "@adraffy/ens-normalize";
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
import { type DevnetScenario, LOCAL_DEVNET_SHAPE_WITH_REVERSE_L2S, scenarioOf } from "../../devnet/src/index";
import { sendAs as sendAsOn, syncClocksAndWaitRealtime as syncClocks } from "../../harness/chain-clock";
import { type DevnetWithLabels, rpc, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { type RunningIndexer, startIndexer } from "../../harness/indexer-harness";
import type { DevnetManifest } from "../../src/namespaces/devnet-manifest";

/*
 * Primary names on chains that have nothing of ENS but an ENSIP-19 L2 reverse registrar, as Arbitrum One and Scroll:
 * the devnet with two such chains (31340, 31341) next to the usual three. Accounts name themselves there with .eth
 * names they hold on the root chain; the API's primary names for those chains, from the index and forced onchain,
 * must equal ENSIP-19 worked out here with eth_call: the chain's reverse registrar (else the default one), then the
 * name forward-resolved under the chain's coin type. The scenario sets only ETH addresses, so every L2 name fails
 * that check at first; the test then sets the names' addresses for the two chains' coin types and the API follows.
 */

const ROOT = 31337;
const ARBITRUM = 31340;
const SCROLL = 31341;
const REVERSE_ONLY = [ARBITRUM, SCROLL];
const ALL_CHAINS = [31337, 31338, 31339, ARBITRUM, SCROLL];
const coinTypeOf = (chainId: number) => 0x80000000n | BigInt(chainId);

const RegistryRead = parseAbi(["function resolver(bytes32 node) view returns (address)"]);
const ResolverAbi = parseAbi([
  "function addr(bytes32 node, uint256 coinType) view returns (bytes)",
  "function setAddr(bytes32 node, uint256 coinType, bytes a)",
]);
const ReverseRead = parseAbi(["function nameForAddr(address addr) view returns (string)"]);
const SupportsInterface = parseAbi(["function supportsInterface(bytes4 id) view returns (bool)"]);

let env: DevnetWithLabels;
let manifest: DevnetManifest;
let scenario: DevnetScenario;
let indexer: RunningIndexer;
const clients = new Map<number, PublicClient>();

const rpcUrl = (chainId: number) => manifest.chains[String(chainId)]!.rpcUrl;
const reverseRegistrarOf = (chainId: number) =>
  manifest.datasources[chainId === ARBITRUM ? "reverseArbitrum" : "reverseScroll"]!.contracts.L2ReverseRegistrar!
    .address as Address;
const l2Primaries = (chainId: number) =>
  (scenario.primaryNames as unknown as Record<string, Record<string, string>>)[
    chainId === ARBITRUM ? "arbitrum" : "scroll"
  ] ?? {};

async function read<T>(
  chainId: number,
  address: Address,
  abi: any,
  functionName: string,
  args: unknown[],
): Promise<T | undefined> {
  try {
    return (await clients.get(chainId)!.readContract({ address, abi, functionName, args } as never)) as T;
  } catch {
    return undefined;
  }
}

/** The root resolver of a .eth name (the devnet's names have their resolver set on themselves). */
async function rootResolver(name: string): Promise<Address | undefined> {
  const registry = manifest.datasources.ensroot!.contracts.Registry!.address as Address;
  const resolver = await read<Address>(ROOT, registry, RegistryRead, "resolver", [namehash(name)]);
  return resolver && resolver !== zeroAddress ? resolver : undefined;
}

/** ENSIP-19 from the chains: the L2 reverse registrar's name (else the default one's), verified forward. */
async function chainPrimary(address: Address, chainId: number): Promise<string | null> {
  const specific = await read<string>(chainId, reverseRegistrarOf(chainId), ReverseRead, "nameForAddr", [address]);
  const fallback = manifest.datasources.ensroot!.contracts.DefaultReverseRegistrar!.address as Address;
  const name = specific || (await read<string>(ROOT, fallback, ReverseRead, "nameForAddr", [address]));
  if (!name) return null;
  try {
    if (ens_normalize(name) !== name) return null;
  } catch {
    return null;
  }
  const resolver = await rootResolver(name);
  if (!resolver) return null;
  const raw = await read<Hex>(ROOT, resolver, ResolverAbi, "addr", [namehash(name), coinTypeOf(chainId)]);
  return raw && raw.toLowerCase() === address.toLowerCase() ? name : null;
}

async function get(path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${indexer.url}${path}`);
  return { status: res.status, body: await res.json() };
}

/** Sends as `from` on `chainId` (impersonated, and funded) and waits for its receipt. */
const sendAs = (chainId: number, from: Address, to: Address, data: Hex) =>
  sendAsOn({ rpcUrl: rpcUrl(chainId), client: clients.get(chainId)! }, { from, to, data, fund: true });
/** One block on every chain at the wall clock, then waits until the index is realtime past them. */
const syncClocksAndWaitRealtime = () => syncClocks(ALL_CHAINS.map(rpcUrl), indexer.url);

beforeAll(async () => {
  env = await startDevnetWithLabels({
    seed: 5,
    names: 10,
    mineInterval: 1,
    shape: LOCAL_DEVNET_SHAPE_WITH_REVERSE_L2S,
  });
  manifest = env.devnet.manifest;
  scenario = scenarioOf(manifest);
  for (const chainId of ALL_CHAINS)
    clients.set(chainId, createPublicClient({ transport: http(rpcUrl(chainId)) }) as PublicClient);
  indexer = await startIndexer({
    manifestPath: env.devnet.manifestPath,
    labelsServiceUrl: env.labelsUrl,
    // The devnet has ENSv2 beside ENSv1: names resolve through ENSv2 first, which the index answers with its plugin.
    plugins: ["subgraph", "protocol-acceleration", "ensv2"],
    database: "postgres",
  });
  await indexer.process.ready();
  await syncClocksAndWaitRealtime();
}, 900_000);

afterAll(async () => {
  await indexer?.stop();
  await env?.stop();
});

/** Every account that set a name on a reverse-only chain, plus one that never did. */
const accountsToCheck = () =>
  [...new Set([...REVERSE_ONLY.flatMap((c) => Object.keys(l2Primaries(c))), scenario.accounts[19]!])] as Address[];

async function expectApiEqualsChains(): Promise<{ names: number }> {
  let names = 0;
  for (const address of accountsToCheck()) {
    const expected = Object.fromEntries(
      await Promise.all(ALL_CHAINS.map(async (id) => [String(id), await chainPrimary(address, id)] as const)),
    );
    const fast = await get(`/api/resolve/primary-names/${address}?chainIds=${REVERSE_ONLY.join(",")}`);
    const slow = await get(`/api/resolve/primary-names/${address}?chainIds=${REVERSE_ONLY.join(",")}&accelerate=false`);
    expect(fast.status, address).toBe(200);
    expect(slow.status, address).toBe(200);
    const wanted = Object.fromEntries(REVERSE_ONLY.map((id) => [String(id), expected[String(id)]]));
    expect(fast.body.names, `${address} (index)`).toEqual(wanted);
    expect(slow.body.names, `${address} (onchain)`).toEqual(wanted);
    expect(fast.body.accelerated, address).toBe(true);
    for (const id of REVERSE_ONLY) {
      const one = await get(`/api/resolve/primary-name/${address}/${id}`);
      expect(one.status).toBe(200);
      expect(one.body.name, `${address} on ${id}`).toBe(expected[String(id)]);
      if (expected[String(id)]) names++;
    }
  }
  return { names };
}

describe("primary names on reverse-only chains", () => {
  it("are indexed: the manifest lists both chains and the API accepts their ids", async () => {
    expect(Object.keys(manifest.chains).sort()).toEqual(ALL_CHAINS.map(String).sort());
    expect(Object.keys(l2Primaries(ARBITRUM)).length).toBeGreaterThanOrEqual(2);
    expect(Object.keys(l2Primaries(SCROLL)).length).toBeGreaterThanOrEqual(2);
    const config = await get("/api/config");
    expect(config.body.indexedChainIds).toEqual(expect.arrayContaining(ALL_CHAINS));
  });

  it("equal ENSIP-19 from eth_call while the names have only ETH addresses (none verifies)", async () => {
    const { names } = await expectApiEqualsChains();
    expect(names, "no L2 name resolves back under the chain's coin type yet").toBe(0);
    // The reverse registrars do hold the names: the index must have the last one each account set.
    for (const id of REVERSE_ONLY) {
      for (const [address, name] of Object.entries(l2Primaries(id))) {
        expect(await read<string>(id, reverseRegistrarOf(id), ReverseRead, "nameForAddr", [address])).toBe(name);
      }
    }
  }, 120_000);

  it("follow the chains once the names resolve back under Arbitrum's and Scroll's coin types", async () => {
    // Each namer's name gets its address for both chains' coin types (the first one for Scroll only), where its
    // resolver has multicoin addresses (ENSIP-9); the holder of a wrapped name is the NameWrapper token's.
    const namers = Object.entries(l2Primaries(ARBITRUM)).filter(([, name]) => !name.startsWith("never-registered"));
    let set = 0;
    for (const [address, name] of namers) {
      const resolver = await rootResolver(name);
      expect(resolver, name).toBeDefined();
      if (!(await read<boolean>(ROOT, resolver!, SupportsInterface, "supportsInterface", ["0xf1cb7e06"]))) continue;
      const facts = scenario.names.find((f) => f.name === name);
      const owner = (facts?.wrappedOwner ?? facts?.registryOwner ?? address) as Address;
      for (const chainId of set === 0 ? [SCROLL] : REVERSE_ONLY) {
        const data = encodeFunctionData({
          abi: ResolverAbi,
          functionName: "setAddr",
          args: [namehash(name), coinTypeOf(chainId), address as Hex],
        });
        await sendAs(ROOT, owner, resolver!, data);
      }
      set++;
    }
    expect(set, "namers whose resolver takes multicoin addresses").toBeGreaterThanOrEqual(2);
    await syncClocksAndWaitRealtime();
    const { names } = await expectApiEqualsChains();
    expect(names, "L2 primary names that now verify").toBe(2 * set - 1);
  }, 300_000);

  it("answer 400 for a chain the index lacks, listing the reverse-only chains among the valid ones", async () => {
    const { status, body } = await get(`/api/resolve/primary-name/${scenario.crossChainPrimary.address}/42161`);
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toContain("31340, 31341");
  });
});
