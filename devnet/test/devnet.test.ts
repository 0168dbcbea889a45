import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getCoderByCoinType } from "@ensdomains/address-encoder";
import { decode as decodeContenthash } from "@ensdomains/content-hash";
import {
  type Abi,
  type AbiEvent,
  type Address,
  createPublicClient,
  type Hex,
  hexToBytes,
  http,
  namehash,
  type PublicClient,
  parseAbiItem,
  toEventSelector,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import wordListPath from "word-list";
import { type DevnetManifest, readDevnetManifest } from "../../src/namespaces/devnet-manifest";
import {
  devnetAbis,
  MANIFEST_CONTRACT_SOURCES,
  manifestContractEvents,
  type NameFacts,
  type RunningDevnet,
  scenarioOf,
  startDevnet,
} from "../src/index";
import { readManifestWithScenario } from "../src/manifest";
import { labelhash } from "../src/names";
import { MAINNET_SIGNATURES } from "./signatures";

const SEED = 7;
const NAMES = 40;

let devnet: RunningDevnet;
let manifest: DevnetManifest;
let dir: string;
const clients = new Map<number, PublicClient>();
const client = (chainId: number) => clients.get(chainId)!;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "devnet-test-"));
  devnet = await startDevnet({ seed: SEED, names: NAMES, manifestPath: join(dir, "manifest.json") });
  manifest = devnet.manifest;
  for (const [id, chain] of Object.entries(manifest.chains)) {
    clients.set(Number(id), createPublicClient({ transport: http(chain.rpcUrl, { batch: { batchSize: 500 } }) }));
  }
});

afterAll(async () => {
  await devnet?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const scenario = () => scenarioOf(manifest);
const contractsOf = () =>
  Object.entries(manifest.datasources).flatMap(([ds, { chainId, contracts }]) =>
    Object.entries(contracts).map(([name, ref]) => ({ ds, name, chainId, ...ref })),
  );

describe("devnet chains and manifest", () => {
  it("writes a manifest that the indexer's schema accepts, with the three chains answering their ids", async () => {
    // What the indexer reads carries no scenario facts; they are in a file of their own, and read back whole.
    expect(JSON.parse(readFileSync(devnet.manifestPath, "utf8"))).not.toHaveProperty("scenario");
    expect(readDevnetManifest(devnet.manifestPath)).toEqual({ ...manifest, scenario: {} });
    expect(readManifestWithScenario(devnet.manifestPath)).toEqual(manifest);
    expect(scenarioOf(readManifestWithScenario(devnet.manifestPath)).names.length).toBeGreaterThanOrEqual(NAMES);
    expect(Object.fromEntries(Object.entries(manifest.chains).map(([id, c]) => [id, c.name]))).toEqual({
      "31337": "devnetRoot",
      "31338": "devnetBase",
      "31339": "devnetLinea",
    });
    for (const [id, chain] of Object.entries(manifest.chains)) {
      expect(chain.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(await client(Number(id)).getChainId()).toBe(Number(id));
      // Buried under ≥64 blocks so an indexer sees the scenario as finalized.
      const last = scenario().blocks[id];
      expect(last).toBeGreaterThan(64);
    }
  });

  it("has code at every contract address, deployed exactly at its startBlock, before its first log", async () => {
    const withAddress = contractsOf().filter((c) => c.address);
    expect(withAddress.length).toBeGreaterThanOrEqual(22);
    for (const c of withAddress) {
      const pub = client(c.chainId);
      const address = c.address as Address;
      expect((await pub.getCode({ address }))?.length ?? 0, `${c.ds}/${c.name}`).toBeGreaterThan(2);
      expect(
        await pub.getCode({ address, blockNumber: BigInt(c.startBlock - 1) }),
        `${c.ds}/${c.name} before startBlock`,
      ).toBeUndefined();
      const logs = await pub.getLogs({ address, fromBlock: 0n, toBlock: "latest" });
      if (logs.length > 0) expect(Number(logs[0].blockNumber)).toBeGreaterThanOrEqual(c.startBlock);
    }
  });
});

describe("event signatures", () => {
  it("every contract emits mainnet's topic0 and indexed flags", () => {
    for (const [key, signatures] of Object.entries(MAINNET_SIGNATURES)) {
      const [ds, contract] = key.split("/");
      const events = manifestContractEvents(MANIFEST_CONTRACT_SOURCES[ds][contract]);
      for (const sig of signatures) {
        const expected = parseAbiItem(`event ${sig}`) as AbiEvent;
        const found = events.find((e) => e.selector === toEventSelector(sig));
        expect(found, `${key} lacks ${sig}`).toBeDefined();
        expect(
          found!.event.inputs.map((i) => !!i.indexed),
          `${key} ${sig} indexed flags`,
        ).toEqual(expected.inputs.map((i) => !!i.indexed));
      }
    }
  });
});

describe("scenario", () => {
  it("counts every event kind exactly as eth_getLogs reads it back", async () => {
    const fromLogs: Record<string, number> = {};
    for (const c of contractsOf()) {
      for (const ev of manifestContractEvents(MANIFEST_CONTRACT_SOURCES[c.ds][c.name])) {
        const logs = await client(c.chainId).request({
          method: "eth_getLogs",
          params: [
            {
              fromBlock: "0x0",
              toBlock: "latest",
              topics: [ev.selector],
              ...(c.address ? { address: c.address as Address } : {}),
            },
          ],
        });
        if (logs.length > 0) fromLogs[`${c.ds}/${c.name}:${ev.name}`] = logs.length;
      }
    }
    expect(scenario().eventCounts).toEqual(fromLogs);
  });

  it("exercises every indexed event kind", () => {
    const counts = scenario().eventCounts;
    const required = Object.entries(MAINNET_SIGNATURES).flatMap(([key, sigs]) => {
      const [ds, contract] = key.split("/");
      const events = manifestContractEvents(MANIFEST_CONTRACT_SOURCES[ds][contract]);
      return sigs.map((sig) => `${key}:${events.find((e) => e.selector === toEventSelector(sig))!.name}`);
    });
    // Mainnet's early-access Basenames controller only registers (its ABI has no NameRenewed), so the devnet's does too.
    const optional = ["basenames/EARegistrarController:NameRenewed"];
    const missing = required.filter((k) => !optional.includes(k) && !(counts[k] > 0));
    expect(missing).toEqual([]);
  });

  it("uses word-list words, unhealable non-words and odd labels, and lists every label", () => {
    const { labels, unhealableLabels, names } = scenario();
    const words = new Set(readFileSync(wordListPath, "utf8").split("\n"));
    expect(unhealableLabels.length).toBeGreaterThan(0);
    for (const l of unhealableLabels) expect(words.has(l), l).toBe(false);
    const labelSet = new Set(labels);
    for (const n of names) for (const l of n.labels) expect(labelSet.has(l), JSON.stringify(l)).toBe(true);
    for (const odd of ["HelloWorld", "🦊🚀🌈", "dot.ted", "has spaces", "nul\u0000byte"])
      expect(labelSet.has(odd)).toBe(true);
    expect(labels.some((l) => /^\[[0-9a-f]{64}\]$/.test(l))).toBe(true);
    expect(labels.filter((l) => words.has(l)).length).toBeGreaterThan(labels.length / 2);
  });

  it("is deterministic: the same seed replays the same labels, names and event counts; another seed does not", async () => {
    const again = await startDevnet({ seed: SEED, names: NAMES, manifestPath: join(dir, "again.json") });
    const other = await startDevnet({ seed: SEED + 1, names: NAMES, manifestPath: join(dir, "other.json") });
    try {
      const a = scenarioOf(again.manifest);
      const b = scenarioOf(other.manifest);
      expect(a.labels).toEqual(scenario().labels);
      expect(a.names).toEqual(scenario().names);
      expect(a.eventCounts).toEqual(scenario().eventCounts);
      expect(b.labels).not.toEqual(scenario().labels);
    } finally {
      await Promise.all([again.stop(), other.stop()]);
    }
  });

  it("refuses a txsPerBlock that would never end a step", async () => {
    for (const txsPerBlock of [0, -1, 2.5]) {
      await expect(
        startDevnet({ seed: SEED, names: NAMES, manifestPath: join(dir, "never.json"), txsPerBlock }),
      ).rejects.toThrow(/txsPerBlock must be a whole number/);
    }
  });

  it("plays the same scenario in blocks of at most txsPerBlock transactions", async () => {
    const small = await startDevnet({
      seed: SEED,
      names: NAMES,
      manifestPath: join(dir, "small-blocks.json"),
      txsPerBlock: 5,
    });
    try {
      const s = scenarioOf(small.manifest);
      expect(s.names).toEqual(scenario().names);
      expect(s.eventCounts).toEqual(scenario().eventCounts);
      const rootId = Object.keys(small.manifest.chains)[0]!;
      const heads = s.blocks as Record<string, number>;
      expect(heads[rootId]).toBeGreaterThan((scenario().blocks as Record<string, number>)[rootId]!);
      const rootClient = createPublicClient({
        transport: http(small.manifest.chains[rootId]!.rpcUrl, { batch: { batchSize: 500 } }),
      });
      const counts = await Promise.all(
        Array.from({ length: heads[rootId]! + 1 }, (_, n) =>
          rootClient.getBlockTransactionCount({ blockNumber: BigInt(n) }),
        ),
      );
      expect(Math.max(...counts)).toBe(5);
    } finally {
      await small.stop();
    }
  });
});

describe("registrar actions", () => {
  it("pair every registrar event with the controller events of the same label and transaction", () => {
    const { registrarActions, eventCounts, names } = scenario();
    const count = (k: string) => eventCounts[k] ?? 0;
    for (const ds of ["ensroot", "basenames", "lineanames"]) {
      const actions = registrarActions.filter((a) => a.registrar === `${ds}/BaseRegistrar`);
      const registrarEvents =
        count(`${ds}/BaseRegistrar:NameRegistered`) +
        count(`${ds}/BaseRegistrar:NameRegisteredWithRecord`) +
        count(`${ds}/BaseRegistrar:NameRenewed`);
      expect(actions.length, ds).toBe(registrarEvents);
      // Renewals always come through a controller; registrations too, except migrations and premints.
      expect(actions.filter((a) => a.type === "renewal" && a.controllerEvents.length === 0)).toEqual([]);
      const bare = actions.filter((a) => a.type === "registration" && a.controllerEvents.length === 0).length;
      const expectedBare = names.filter(
        (n) =>
          n.chainId === actions[0].chainId &&
          ((n.via === "old-registry" && n.migrated === true) || n.via === "basenames-premint"),
      ).length;
      expect(bare, ds).toBe(expectedBare);
    }
    const referred = registrarActions.filter((a) => a.controllerEvents.some((e) => e.event === "RenewalReferred"));
    expect(referred.length).toBe(eventCounts["ensroot/RenewalWithReferrer:RenewalReferred"] ?? 0);
    for (const a of referred)
      expect(a.controllerEvents.map((e) => e.contract)).toEqual([
        "ensroot/WrappedEthRegistrarController",
        "ensroot/RenewalWithReferrer",
      ]);
    // A referrer whose high 12 bytes are not zero (it decodes to the zero address).
    expect(
      registrarActions.some((a) =>
        a.controllerEvents.some((e) => e.referrer && !e.referrer.startsWith("0x000000000000000000000000")),
      ),
    ).toBe(true);
    for (const a of registrarActions)
      for (const e of a.controllerEvents) if (e.label !== undefined) expect(labelhash(e.label)).toBe(a.labelhash);
  });
});

describe("primary names", () => {
  it("one account has a primary name on every chain that forward-resolves to it under the chain's coin type", async () => {
    const { crossChainPrimary, names, primaryNames } = scenario();
    const abi = (devnetAbis() as Record<string, Abi>).StandaloneReverseRegistrar;
    const resolverAbi = (devnetAbis() as Record<string, Abi>).ModernResolver;
    const reverse: Record<string, [string, string]> = {
      "31337": ["ensroot", "DefaultReverseRegistrar"],
      "31338": ["reverseBase", "L2ReverseRegistrar"],
      "31339": ["reverseLinea", "L2ReverseRegistrar"],
    };
    for (const [chainId, [ds, contract]] of Object.entries(reverse)) {
      const name = crossChainPrimary.names[chainId];
      expect(name, `chain ${chainId}`).toBeTruthy();
      const address = manifest.datasources[ds as keyof DevnetManifest["datasources"]]!.contracts[contract]
        .address as Address;
      expect(
        await client(Number(chainId)).readContract({
          address,
          abi,
          functionName: "nameForAddr",
          args: [crossChainPrimary.address],
        }),
      ).toBe(name);
      const facts = names.find((n) => n.name === name && n.chainId === Number(chainId))!;
      const addr = await client(Number(chainId)).readContract({
        address: facts.resolver as Address,
        abi: resolverAbi,
        functionName: "addr",
        args: [facts.node],
      });
      expect((addr as string).toLowerCase()).toBe(crossChainPrimary.address);
      if (chainId !== "31337") {
        // ENSIP-19 checks an L2 name under the chain's own coin type, 0x80000000 | chainId.
        const coinType = 0x80000000n | BigInt(chainId);
        const raw = await client(Number(chainId)).readContract({
          address: facts.resolver as Address,
          abi: resolverAbi,
          functionName: "addr",
          args: [facts.node, coinType],
        });
        expect((raw as string).toLowerCase(), `chain ${chainId} coin type ${coinType}`).toBe(crossChainPrimary.address);
      }
    }
    // On the root chain its addr.reverse name (which a primary-name lookup reads first) is the same name.
    expect(primaryNames.root[crossChainPrimary.address]).toEqual({
      legacy: crossChainPrimary.names["31337"],
      default: crossChainPrimary.names["31337"],
    });
    const reverseNode = namehash(`${crossChainPrimary.address.slice(2)}.addr.reverse`);
    const registry = manifest.datasources.ensroot!.contracts.Registry.address as Address;
    const reverseResolver = await client(31337).readContract({
      address: registry,
      abi: reads.registry,
      functionName: "resolver",
      args: [reverseNode],
    });
    expect(
      await client(31337).readContract({
        address: reverseResolver as Address,
        abi: reads.name,
        functionName: "name",
        args: [reverseNode],
      }),
    ).toBe(crossChainPrimary.names["31337"]);
  });

  it("every L2 primary name resolves back under the chain's coin type", async () => {
    const { primaryNames, names } = scenario();
    const resolverAbi = (devnetAbis() as Record<string, Abi>).ModernResolver;
    for (const [chainId, byAddress] of [
      ["31338", primaryNames.base],
      ["31339", primaryNames.linea],
    ] as const) {
      expect(Object.keys(byAddress).length, chainId).toBeGreaterThan(1);
      for (const [address, name] of Object.entries(byAddress)) {
        const facts = names.find((n) => n.name === name && n.chainId === Number(chainId))!;
        const raw = await client(Number(chainId)).readContract({
          address: facts.resolver as Address,
          abi: resolverAbi,
          functionName: "addr",
          args: [facts.node, 0x80000000n | BigInt(chainId)],
        });
        expect((raw as string).toLowerCase(), `${name} on ${chainId}`).toBe(address);
      }
    }
  });
});

const reads = {
  registry: [parseAbiItem("function resolver(bytes32 node) view returns (address)")],
  name: [parseAbiItem("function name(bytes32 node) view returns (string)")],
};

describe("onchain facts of every scenario name", () => {
  const abis = () => devnetAbis() as Record<string, Abi>;
  const addressOf = (ds: string, contract: string) =>
    manifest.datasources[ds as keyof DevnetManifest["datasources"]]!.contracts[contract].address as Address;
  const registryOf = (chainId: number, tld: string) =>
    chainId === 31337
      ? { address: addressOf("ensroot", "Registry"), abi: abis().ENSRegistryWithFallback }
      : chainId === 31339
        ? { address: addressOf("lineanames", "Registry"), abi: abis().ENSRegistry }
        : tld === "eth"
          ? { address: addressOf("basenames", "Registry"), abi: abis().ENSRegistry }
          : { address: addressOf("threednsBase", "ThreeDNSToken"), abi: abis().ThreeDNSToken };

  it("registry owner, resolver and deletions match eth_call reads", async () => {
    const names = scenario().names;
    expect(names.length).toBeGreaterThanOrEqual(NAMES);
    const checks = names
      .filter((n) => n.registryOwner)
      .map(async (n) => {
        const r = registryOf(n.chainId, n.labels[n.labels.length - 1]);
        const pub = client(n.chainId);
        const owner = (await pub.readContract({ ...r, functionName: "owner", args: [n.node] })) as Address;
        expect(owner.toLowerCase(), `owner of ${JSON.stringify(n.name)}`).toBe(n.registryOwner!.toLowerCase());
        if (n.deleted) expect(owner).toBe("0x0000000000000000000000000000000000000000");
        if (n.resolver) {
          const resolver = (await pub.readContract({ ...r, functionName: "resolver", args: [n.node] })) as Address;
          expect(resolver.toLowerCase(), `resolver of ${JSON.stringify(n.name)}`).toBe(n.resolver.toLowerCase());
        }
      });
    await Promise.all(checks);
    expect(names.filter((n) => n.deleted).length).toBeGreaterThan(0);
  });

  it("ERC-721 registrants (ownerOf) and ERC-1155 holders (balanceOf) match", async () => {
    const names = scenario().names;
    const registrarOf = (n: NameFacts) =>
      n.chainId === 31337
        ? { address: addressOf("ensroot", "BaseRegistrar"), abi: abis().BaseRegistrarImplementation }
        : n.chainId === 31339
          ? { address: addressOf("lineanames", "BaseRegistrar"), abi: abis().BaseRegistrarImplementation }
          : { address: addressOf("basenames", "BaseRegistrar"), abi: abis().BasenamesBaseRegistrar };
    const wrapperOf = (n: NameFacts) =>
      n.chainId === 31337
        ? { address: addressOf("ensroot", "NameWrapper"), abi: abis().NameWrapper }
        : n.chainId === 31339
          ? { address: addressOf("lineanames", "NameWrapper"), abi: abis().NameWrapper }
          : { address: addressOf("threednsBase", "ThreeDNSToken"), abi: abis().ThreeDNSToken };
    await Promise.all(
      names.map(async (n) => {
        const pub = client(n.chainId);
        if (n.registrant) {
          const owner = (await pub.readContract({
            ...registrarOf(n),
            functionName: "ownerOf",
            args: [BigInt(labelhash(n.labels[0]))],
          })) as Address;
          expect(owner.toLowerCase(), `ownerOf ${n.name}`).toBe(n.registrant.toLowerCase());
        }
        if (n.wrappedOwner) {
          const balance = await pub.readContract({
            ...wrapperOf(n),
            functionName: "balanceOf",
            args: [n.wrappedOwner, BigInt(n.node)],
          });
          expect(balance, `balanceOf ${n.name}`).toBe(1n);
        }
      }),
    );
    expect(names.filter((n) => n.wrappedOwner && n.chainId === 31337).length).toBeGreaterThan(3);
    expect(names.filter((n) => n.unwrapped).length).toBeGreaterThan(0);
  });

  it("text and addr records read back from each name's resolver", async () => {
    const names = scenario().names.filter((n) => n.resolver && (n.texts || n.addr));
    expect(names.length).toBeGreaterThan(10);
    await Promise.all(
      names.map(async (n) => {
        const pub = client(n.chainId);
        const resolver = { address: n.resolver as Address, abi: abis().ModernResolver };
        for (const [key, value] of Object.entries(n.texts ?? {})) {
          expect(
            await pub.readContract({ ...resolver, functionName: "text", args: [n.node, key] }),
            `${n.name} text ${key}`,
          ).toBe(value);
        }
        if (n.addr) {
          const addr = (await pub.readContract({ ...resolver, functionName: "addr", args: [n.node] })) as Hex;
          expect(addr.toLowerCase(), `${n.name} addr`).toBe(n.addr);
        }
      }),
    );
  });

  it("each full profile (ENSv1 and ENSv2) reads back from its resolver: texts, addresses in their chains' forms, contenthash, pubkey, ABI, interface", async () => {
    const profiles = scenario().fullProfiles;
    expect(profiles.map((p) => p.version).sort()).toEqual(["ENSv1", "ENSv2"]);
    for (const p of profiles) {
      const pub = client(p.chainId);
      const resolver = {
        address: p.resolver,
        abi: p.version === "ENSv2" ? abis().PermissionedResolver : abis().ModernResolver,
      };
      const node = namehash(p.name);
      const read = (functionName: string, args: unknown[]) =>
        pub.readContract({ ...resolver, functionName, args } as never);
      for (const [key, value] of Object.entries(p.texts))
        expect(await read("text", [node, key]), `${p.name} ${key}`).toBe(value);
      expect(Object.keys(p.addresses).sort()).toEqual(["0", "137", "2", "2147483658", "2147492101", "3", "501", "60"]);
      for (const a of Object.values(p.addresses)) {
        expect(await read("addr", [node, BigInt(a.coinType)]), `${p.name} coin ${a.coinType}`).toBe(a.bytes);
        // The bytes are what the chain's own text form decodes to (ENS's address-encoder).
        expect(getCoderByCoinType(a.coinType).encode(hexToBytes(a.bytes))).toBe(a.text);
      }
      expect(await read("contenthash", [node])).toBe(p.contenthash.bytes);
      expect(`ipfs://${decodeContenthash(p.contenthash.bytes)}`).toBe(p.contenthash.uri);
      expect(await read("pubkey", [node])).toEqual([p.pubkey.x, p.pubkey.y]);
      expect(await read("ABI", [node, BigInt(p.abi.contentType)])).toEqual([BigInt(p.abi.contentType), p.abi.data]);
      for (const [id, implementer] of Object.entries(p.interfaces))
        expect(((await read("interfaceImplementer", [node, id])) as string).toLowerCase()).toBe(implementer);
    }
    // The ENSv1 profile is on the cross-chain account's root name, so reverse resolution on the root chain leads to it.
    const v1 = profiles.find((p) => p.version === "ENSv1")!;
    expect(v1.name).toBe(scenario().crossChainPrimary.names[String(v1.chainId)]);
  });
});
