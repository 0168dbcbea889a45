import { createPublicClient, http, toEventSelector } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Ensv2EthRegistrarIndexedReferrerAbi } from "../../abis";
import type { DevnetShape } from "../../devnet/src/shape";
import { diffDumps } from "../../harness/canonical-dump";
import {
  FAULT_FREE_REQUESTS_PER_SECOND,
  type HostedRpc,
  startFaultFreeProxies,
} from "../../harness/hosted-rpc/hosted-rpc";
import { type IndexRunResult, indexToEnd } from "../../harness/index-run";
import { createDatabase, dropDatabase } from "../../harness/indexer-harness";
import { type RehearsalChains, startRehearsalChains } from "../../harness/mainnet-chains/chains";
import { loadReferenceNamespace, type ReferenceNamespace } from "../../harness/mainnet-chains/reference-datasources";
import { restrictToReference, shapeOf, unplaced } from "../../harness/mainnet-chains/shape";
import type { DevnetManifest } from "../../src/namespaces/devnet-manifest";

/*
 * Issue #35: `npm run rehearsal` plays sepolia-v2 (REHEARSAL_NETWORKS=sepolia-v2). First without chains, the shape:
 * the redeployed ENSv1 and ENSv2's fixed contracts at @ensnode/datasources' addresses on a Sepolia-shaped root chain,
 * and the devnet manifest cut to the reference's contracts (ENSv2's section included). Then, at a small size, the
 * rehearsal itself on PostgreSQL: devnet mode against NAMESPACE=sepolia-v2 through the hosted-RPC imitation, every
 * table equal, the ENSv2 tables filled from the contracts at the reference's addresses.
 */

const SEPOLIA = 11155111;
const NAMES = 10;
const SEED = 3535;
const RUN_TIMEOUT_MS = 600_000;

const rowsOf = (run: IndexRunResult, table: string) =>
  run.dump[table]!.lines.map((l) => JSON.parse(l) as Record<string, unknown>);

describe("the sepolia-v2 shape (no chains)", () => {
  let reference: ReferenceNamespace;
  let shape: DevnetShape;
  beforeAll(async () => {
    reference = await loadReferenceNamespace("sepolia-v2");
    shape = shapeOf("sepolia-v2", reference);
  });

  it("puts ENSv1's redeployment and ENSv2's fixed contracts at the reference's addresses on one Sepolia chain", () => {
    expect(shape.root.chainId).toBe(SEPOLIA);
    const ensroot = reference.ensroot!.contracts;
    const ensv2 = reference.ensv2!.contracts;
    expect(shape.root.placements).toEqual({
      Registry: ensroot.Registry!.address,
      BaseRegistrar: ensroot.BaseRegistrar!.address,
      UnwrappedEthRegistrarController: ensroot.UnwrappedEthRegistrarController!.address,
      NameWrapper: ensroot.NameWrapper!.address,
      UniversalResolver: ensroot.UniversalResolver!.address,
      DefaultReverseRegistrar: ensroot.DefaultReverseRegistrar!.address,
      RootRegistry: ensv2.RootRegistry!.address,
      ETHRegistry: ensv2.ETHRegistry!.address,
      ETHRegistrar: ensv2.ETHRegistrar!.address,
    });
    // The registrar there is the later build, its NameRegistered and NameRenewed with the referrer indexed.
    expect(shape.root.ensv2Registrar).toBe("ETHRegistrarIndexedReferrer");
    // Every event happens at or after its contract's real start block: ENSv2's is the chain's latest.
    expect(ensv2.RootRegistry!.startBlock).toBe(10_921_916);
    expect(shape.root.genesisNumber).toBeGreaterThan(10_921_916);
  });

  it("leaves out the old registry the package lists at the zero address", () => {
    expect(reference.ensroot!.contracts.RegistryOld).toBeUndefined();
    expect(shape.root.placements!.RegistryOld).toBeUndefined();
  });

  it("plays the L2 reverse registrars' chains, the Base and Linea ones without Basenames or Lineanames", () => {
    expect(reference.basenames).toBeUndefined();
    expect(reference.lineanames).toBeUndefined();
    expect([shape.base.chainId, shape.linea.chainId, shape.optimism?.chainId]).toEqual([84532, 59141, 11155420]);
    expect([shape.arbitrum?.chainId, shape.scroll?.chainId]).toEqual([421614, 534351]);
  });

  it("cuts the devnet manifest's ENSv2 section to the reference's contracts, Registry from the first ENSv2 block", () => {
    const contract = (address: string, startBlock: number) => ({ address, startBlock });
    const a = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;
    const manifest: DevnetManifest = {
      version: 1,
      createdAt: "2026-01-01T00:00:00.000Z",
      seed: 1,
      chains: { [SEPOLIA]: { name: "chain11155111", rpcUrl: "http://127.0.0.1:1" } },
      datasources: {
        ensroot: { chainId: SEPOLIA, contracts: { RegistryOld: contract(a(1), 5), Registry: contract(a(2), 6) } },
        basenames: { chainId: 84532, contracts: { Registry: contract(a(3), 7) } },
      },
      ensv2: {
        chainId: SEPOLIA,
        contracts: {
          VerifiableFactory: contract(a(10), 100),
          RootRegistry: contract(a(11), 102),
          ETHRegistry: contract(a(12), 104),
          ETHRegistrar: contract(a(13), 110),
          BatchRegistrar: contract(a(14), 112),
        },
      },
      scenario: {},
    };
    const cut = restrictToReference(manifest, reference);
    expect(Object.keys(cut.datasources)).toEqual(["ensroot"]);
    expect(Object.keys(cut.datasources.ensroot!.contracts)).toEqual(["Registry"]);
    expect(cut.ensv2!.contracts).toEqual({
      RootRegistry: contract(a(11), 102),
      ETHRegistry: contract(a(12), 104),
      ETHRegistrar: contract(a(13), 110),
      Registry: { startBlock: 100 },
    });
  });

  it("finds a placement the devnet did not honour", () => {
    const manifest = {
      datasources: { ensroot: { chainId: SEPOLIA, contracts: { Registry: { address: "0x01", startBlock: 1 } } } },
    } as unknown as DevnetManifest;
    const partial: DevnetShape = {
      ...shape,
      root: { ...shape.root, placements: { Registry: "0x01", RootRegistry: "0x02" } },
      base: { ...shape.base, placements: {} },
      linea: { ...shape.linea, placements: {} },
      optimism: undefined,
      arbitrum: undefined,
      scroll: undefined,
    };
    expect(unplaced(partial, manifest)).toEqual({ count: 2, missing: [`${SEPOLIA}/RootRegistry (0x02)`] });
  });

  it("drops the ENSv2 section where the reference has no ENSv2 (sepolia)", async () => {
    const sepolia = await loadReferenceNamespace("sepolia");
    const manifest = {
      datasources: {},
      ensv2: { chainId: SEPOLIA, contracts: { RootRegistry: { address: "0x01", startBlock: 1 } } },
    } as unknown as DevnetManifest;
    expect(restrictToReference(manifest, sepolia).ensv2).toBeUndefined();
  });
});

describe(`NAMESPACE=sepolia-v2 on sepolia-v2-shaped chains (${NAMES} names, PostgreSQL)`, () => {
  let chains: RehearsalChains;
  const proxies = new Map<number, HostedRpc>();
  const databases: string[] = [];
  const runs: IndexRunResult[] = [];

  const freshDatabase = async (tag: string) => {
    const name = `rehearsal_sv2_${tag}_${Date.now().toString(36)}`;
    databases.push(name);
    return createDatabase(name);
  };

  beforeAll(async () => {
    chains = await startRehearsalChains({ network: "sepolia-v2", seed: SEED, names: NAMES });
    // Alchemy's caps and error texts, but no random faults: rehearsal-faults.system.test.ts covers those on mainnet.
    for (const [chainId, proxy] of await startFaultFreeProxies(chains.nodes, SEED)) proxies.set(chainId, proxy);
  });

  afterAll(async () => {
    for (const run of runs) await run.indexer.stop();
    for (const p of proxies.values()) await p.close();
    await chains?.stop();
    for (const name of databases) await dropDatabase(name);
  });

  it(
    "indexes every table, the ENSv2 ones included, as devnet mode does",
    async () => {
      const plugins = ["subgraph", "protocol-acceleration", "registrars", "tokenscope", "ensv2"];
      const endBlocks = Object.fromEntries(
        Object.entries(chains.endBlocks).map(([id, b]) => [`END_BLOCK_${id}`, String(b)]),
      );
      const common = { manifestPath: chains.devnetManifestPath, labelsServiceUrl: chains.env.labelsUrl, plugins };
      const devnet = await indexToEnd(
        "sepolia-v2 devnet mode",
        {
          ...common,
          database: "postgres",
          reuse: { databaseUrl: await freshDatabase("devnet") },
          extraEnv: endBlocks,
        },
        RUN_TIMEOUT_MS,
      );
      runs.push(devnet);
      const rpcUrls = Object.fromEntries([...proxies].map(([id, p]) => [`RPC_URL_${id}`, p.url]));
      const rehearsed = await indexToEnd(
        "sepolia-v2 cold",
        {
          ...common,
          database: "postgres",
          reuse: { databaseUrl: await freshDatabase("cold") },
          // The imitation's rate cap, as an operator sets their provider's.
          extraEnv: {
            NAMESPACE: "sepolia-v2",
            LABEL_SET_ID: "demo",
            LABEL_SET_VERSION: "0",
            RPC_REQUESTS_PER_SECOND: String(FAULT_FREE_REQUESTS_PER_SECOND),
            ...rpcUrls,
            ...endBlocks,
          },
        },
        RUN_TIMEOUT_MS,
      );
      runs.push(rehearsed);

      const ensv2 = chains.reference.ensv2!.contracts;
      const registries = rowsOf(rehearsed, "ensv2_registry");
      const root = registries.find((r) => r.address === ensv2.RootRegistry!.address);
      const eth = registries.find((r) => r.address === ensv2.ETHRegistry!.address);
      expect(root?.is_root, "the root registry at the reference's address").toBe(true);
      expect(eth?.canonical_name, "the .eth registry at the reference's address").toBe("eth");
      expect(registries.length, "user registries below .eth, found by ABI").toBeGreaterThan(2);
      const actions = rowsOf(rehearsed, "ensv2_registrar_action");
      expect(actions.length, "ETHRegistrar's registrations and renewals").toBeGreaterThan(0);
      expect(new Set(actions.map((a) => a.registrar))).toEqual(new Set([ensv2.ETHRegistrar!.address]));
      // The registrar there indexes the referrer (three topics): its prices read from the right words, every one paid.
      const rpc = createPublicClient({ transport: http(chains.env.devnet.manifest.chains[String(SEPOLIA)]!.rpcUrl) });
      const logs = await rpc.getLogs({ address: ensv2.ETHRegistrar!.address, fromBlock: 0n, toBlock: "latest" });
      const selectors = new Set(Ensv2EthRegistrarIndexedReferrerAbi.map((e) => toEventSelector(e)));
      const priced = logs.filter((l) => selectors.has(l.topics[0]!));
      expect(
        priced.map((l) => l.topics.length),
        "NameRegistered and NameRenewed with the referrer indexed",
      ).toEqual(actions.map(() => 3));
      for (const a of actions) expect(BigInt(String(a.base_cost)), String(a.id)).toBeGreaterThan(0n);
      expect(rehearsed.dump.domain!.rows, "ENSv1's names").toBeGreaterThan(NAMES);
      expect(diffDumps(devnet.dump, rehearsed.dump)).toEqual([]);
    },
    2 * RUN_TIMEOUT_MS,
  );
});
