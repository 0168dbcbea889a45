import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Address,
  createPublicClient,
  http,
  keccak256,
  namehash,
  parseAbi,
  stringToBytes,
  zeroAddress,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BaseRegistrarAbi, NameWrapperAbi } from "../../abis";
import type { RegistrarActionFact } from "../../devnet/src/actions";
import type { NameFacts } from "../../devnet/src/index";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { createDatabase, dropDatabase, projectRoot, waitFor } from "../../harness/indexer-harness";
import { type PonderProcess, startPonder } from "../../scripts/lib/ponder-process";
import { findFreePort } from "../../scripts/lib/ports";
import type { DevnetManifest } from "../../src/namespaces/devnet-manifest";

/*
 * The registrars and tokenscope plugins on the devnet, compared with what the scenario did and with the chains' own
 * answers: every registration and renewal appears once, with the controller's price, the right incremental duration,
 * registrant and referral, newest first; name tokens agree with ownerOf/balanceOf on every chain, including after
 * the names expire.
 */

const ThreeDNSReadAbi = parseAbi([
  "function balanceOf(address account, uint256 id) view returns (uint256)",
  "function owner(bytes32 node) view returns (address)",
]);

let env: DevnetWithLabels;
let manifest: DevnetManifest;
let ponder: PonderProcess;
let work: string;
let database: string;
let facts: RegistrarActionFact[];
let names: NameFacts[];
const clients = new Map<number, ReturnType<typeof createPublicClient>>();

async function get(path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${ponder.url}${path}`);
  return { status: res.status, body: await res.json() };
}

async function allActions(path: string, limit = 100): Promise<any[]> {
  const out: any[] = [];
  for (let page = 1; ; page++) {
    const sep = path.includes("?") ? "&" : "?";
    const { status, body } = await get(`${path}${sep}limit=${limit}&page=${page}`);
    expect(status).toBe(200);
    out.push(...body.registrarActions);
    if (!body.pageContext.hasNext) return out;
  }
}

const client = (chainId: number) => clients.get(chainId)!;
const contract = (ds: string, name: string) =>
  manifest.datasources[ds as keyof typeof manifest.datasources]!.contracts[name]!.address!.toLowerCase() as Address;
/** The subgraph's event id on the ENS root chain (31337), `-<chainId>` appended on the L2s. */
const eventIdOf = (chainId: number, block: number, logIndex: number) =>
  chainId === 31337 ? `${block}-${logIndex}` : `${block}-${logIndex}-${chainId}`;
const idOf = (f: { chainId: number; blockNumber: number; logIndex: number }) =>
  eventIdOf(f.chainId, f.blockNumber, f.logIndex);

async function rpc(chainId: number, method: string, params: unknown[]): Promise<unknown> {
  const res = await fetch(manifest.chains[String(chainId)]!.rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/**
 * Ponder's omnichain ordering indexes an event only once every chain has passed its timestamp. The scenario moves the
 * root chain's clock forward (commit-reveal waits), so the other chains are brought up to it (or past `target`).
 */
async function alignClocks(target = 0): Promise<number> {
  const latest = async (id: number) => Number((await client(id).getBlock()).timestamp);
  const ids = [...clients.keys()];
  const goal = Math.max(target, ...(await Promise.all(ids.map(latest)))) + 2;
  for (const id of ids) {
    const behind = goal - (await latest(id));
    if (behind > 0) await rpc(id, "evm_increaseTime", [`0x${behind.toString(16)}`]);
    await rpc(id, "anvil_mine", ["0x1"]);
  }
  return goal;
}

beforeAll(async () => {
  database = `nameindex_reg_${Date.now().toString(36)}_${process.pid}`;
  // Ponder's ponder_sync cache is per database and keyed by chain id: a new devnet needs a database of its own.
  const databaseUrl = await createDatabase(database);
  work = mkdtempSync(join(tmpdir(), "nameindex-registrars-e2e-"));
  env = await startDevnetWithLabels({ seed: 11, names: 40, mineInterval: 1 });
  manifest = env.devnet.manifest;
  const scenario = manifest.scenario as { registrarActions: RegistrarActionFact[]; names: NameFacts[] };
  facts = scenario.registrarActions;
  names = scenario.names;
  for (const [id, chain] of Object.entries(manifest.chains)) {
    clients.set(Number(id), createPublicClient({ transport: http(chain.rpcUrl) }));
  }
  await alignClocks();
  const port = await findFreePort();
  const schema = `reg_${Date.now().toString(36)}`;
  const plugins = ["subgraph", "basenames", "lineanames", "threedns", "registrars", "tokenscope"];
  ponder = startPonder({
    projectRoot,
    command: "start",
    port,
    schema,
    logFile: join(work, "ponder.log"),
    env: {
      ...process.env,
      NAMESPACE: "devnet",
      DEVNET_MANIFEST: env.devnet.manifestPath,
      PLUGINS: plugins.join(","),
      DATABASE_URL: databaseUrl,
      DATABASE_SCHEMA: schema,
      LABELS_SERVICE_URL: env.labelsUrl,
      PORT: String(port),
      LABELS_DB: "",
    },
  });
  try {
    await ponder.ready();
    // Following (served) and every scenario action indexed.
    let seen = "";
    await waitFor(
      async () => {
        const tokens = await get(`/api/name-tokens?domainId=${namehash("eth")}`);
        const actions = await get("/api/registrar-actions?limit=1");
        seen = `name-tokens ${tokens.status}, ${actions.body.pageContext?.totalRecords} of ${facts.length} actions`;
        return tokens.status !== 503 && actions.body.pageContext?.totalRecords === facts.length;
      },
      120_000,
      "the name-tokens route to serve and every registrar action to be indexed",
    ).catch((error) => {
      throw new Error(`${(error as Error).message} (last seen: ${seen})`);
    });
  } catch (error) {
    console.error(readFileSync(join(work, "ponder.log"), "utf8").slice(-4000));
    throw error;
  }
}, 600_000);

afterAll(async () => {
  await ponder?.stop();
  await env?.stop();
  if (database) await dropDatabase(database).catch(() => {});
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("registrar actions on the devnet", () => {
  it("lists every registration and renewal of the scenario once, with its events in log order", async () => {
    const actions = await allActions("/api/registrar-actions");
    const ids = actions.map((a) => a.action.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(facts.map(idOf).sort());
    const byId = new Map(actions.map((a) => [a.action.id, a.action]));
    for (const f of facts) {
      const a = byId.get(idOf(f));
      expect(a.type).toBe(f.type);
      expect(a.transactionHash).toBe(f.transactionHash);
      expect(a.eventIds).toEqual([
        idOf(f),
        ...f.controllerEvents.map((c) => eventIdOf(f.chainId, f.blockNumber, c.logIndex)),
      ]);
    }
  });

  it("prices each action as its controller charged (null where the controller publishes no price)", async () => {
    const byId = new Map((await allActions("/api/registrar-actions")).map((a) => [a.action.id, a.action]));
    let priced = 0;
    for (const f of facts) {
      const first = f.controllerEvents.find((c) => c.cost !== undefined || c.baseCost !== undefined);
      const pricing = byId.get(idOf(f)).pricing;
      if (!first) {
        expect(pricing).toEqual({ baseCost: null, premium: null, total: null });
        continue;
      }
      priced++;
      const base = BigInt(first.baseCost ?? first.cost!);
      const premium = BigInt(first.premium ?? 0);
      const eth = (n: bigint) => ({ currency: "ETH", amount: n.toString() });
      expect(pricing).toEqual({ baseCost: eth(base), premium: eth(premium), total: eth(base + premium) });
    }
    expect(priced).toBeGreaterThan(0);
  });

  it("has the incremental duration, registrant (the sender) and expiry the chain says", async () => {
    const byId = new Map((await allActions("/api/registrar-actions")).map((a) => [a.action.id, a.action]));
    const ordered = [...facts].sort(
      (a, b) => a.chainId - b.chainId || a.blockNumber - b.blockNumber || a.logIndex - b.logIndex,
    );
    const lastExpiry = new Map<string, bigint>();
    for (const f of ordered) {
      const a = byId.get(idOf(f));
      const block = await client(f.chainId).getBlock({ blockNumber: BigInt(f.blockNumber) });
      const tx = await client(f.chainId).getTransaction({ hash: f.transactionHash });
      const key = `${f.registrar}-${f.labelhash}`;
      const expected =
        f.type === "registration" ? BigInt(f.expires) - block.timestamp : BigInt(f.expires) - lastExpiry.get(key)!;
      lastExpiry.set(key, BigInt(f.expires));
      expect(a.incrementalDuration).toBe(Number(expected));
      expect(a.incrementalDuration).toBeGreaterThan(0);
      expect(a.registrant).toBe(tx.from.toLowerCase());
      expect(a.block).toEqual({ number: f.blockNumber, timestamp: Number(block.timestamp) });
      const [ds] = f.registrar.split("/");
      expect(a.registrationLifecycle.subregistry.subregistryId).toEqual({
        chainId: f.chainId,
        address: contract(ds!, "BaseRegistrar"),
      });
    }
    // The lifecycle's expiry is the latest one of its name.
    for (const f of facts) {
      expect(byId.get(idOf(f)).registrationLifecycle.expiresAt).toBe(
        Number(lastExpiry.get(`${f.registrar}-${f.labelhash}`)),
      );
    }
  });

  it("is newest first, ties broken by block number, log index and id", async () => {
    const actions = await allActions("/api/registrar-actions", 7);
    for (let i = 1; i < actions.length; i++) {
      const [p, q] = [actions[i - 1].action, actions[i].action];
      const key = (a: any) => [a.block.timestamp, a.block.number, Number(a.id.split("-")[1])];
      const [kp, kq] = [key(p), key(q)];
      const cmp = kp[0] - kq[0] || kp[1] - kq[1] || kp[2] - kq[2] || (p.id > q.id ? 1 : p.id < q.id ? -1 : 0);
      expect(cmp).toBeGreaterThan(0);
    }
  });

  it("decodes referrers, a referrer with non-zero high bytes to the zero address", async () => {
    const byId = new Map((await allActions("/api/registrar-actions")).map((a) => [a.action.id, a.action]));
    let highBytes = 0;
    for (const f of facts) {
      const referrer = [...f.controllerEvents]
        .reverse()
        .find((c) => c.referrer !== undefined)
        ?.referrer?.toLowerCase();
      const referral = byId.get(idOf(f)).referral;
      if (referrer === undefined) {
        expect(referral).toEqual({ encodedReferrer: null, decodedReferrer: null });
        continue;
      }
      const isAddress = referrer.slice(2, 26) === "0".repeat(24);
      if (!isAddress) highBytes++;
      expect(referral).toEqual({
        encodedReferrer: referrer,
        decodedReferrer: isAddress ? `0x${referrer.slice(26)}` : zeroAddress,
      });
    }
    expect(highBytes).toBeGreaterThan(0);
  });

  it("filters by referral and decoded referrer", async () => {
    const referred = facts.filter((f) => {
      const r = [...f.controllerEvents].reverse().find((c) => c.referrer !== undefined)?.referrer;
      return r !== undefined && BigInt(r) !== 0n;
    });
    const withReferral = await allActions("/api/registrar-actions?withReferral=true", 3);
    expect(withReferral.map((a) => a.action.id).sort()).toEqual(referred.map(idOf).sort());
    const someone = withReferral.find((a) => a.action.referral.decodedReferrer !== zeroAddress)!.action.referral
      .decodedReferrer;
    const bySomeone = await allActions(`/api/registrar-actions?decodedReferrer=${someone}`);
    expect(bySomeone.length).toBeGreaterThan(0);
    for (const a of bySomeone) expect(a.action.referral.decodedReferrer).toBe(someone);
  });

  it("lists one subregistry's actions under its parent node, named under its managed name", async () => {
    for (const [ds, managed] of [
      ["ensroot", "eth"],
      ["basenames", "base.eth"],
      ["lineanames", "linea.eth"],
    ] as const) {
      const actions = await allActions(`/api/registrar-actions/${namehash(managed)}`, 10);
      const want = facts.filter((f) => f.registrar === `${ds}/BaseRegistrar`);
      expect(actions.map((a) => a.action.id).sort()).toEqual(want.map(idOf).sort());
      for (const { action, name } of actions) {
        expect(action.registrationLifecycle.subregistry.node).toBe(namehash(managed));
        const fact = want.find((f) => idOf(f) === action.id)!;
        const [first, ...rest] = name.split(".");
        expect(rest.join(".")).toBe(managed);
        expect([keccak256(stringToBytes(first)), `0x${first.slice(1, -1)}`]).toContain(fact.labelhash);
      }
    }
  });
});

describe("name tokens on the devnet", () => {
  const ethWrapper = () => contract("ensroot", "NameWrapper");
  const lineaWrapper = () => contract("lineanames", "NameWrapper");

  async function tokensOf(facts: NameFacts) {
    const { status, body } = await get(`/api/name-tokens?domainId=${facts.node}`);
    expect(status, facts.name).toBe(200);
    return body.registeredNameTokens;
  }

  it("matches ownerOf/balanceOf for unwrapped, wrapped and once-wrapped .eth names", async () => {
    const eth2lds = names.filter(
      (n) => n.chainId === 31337 && n.labels.length === 2 && n.labels[1] === "eth" && n.registrant,
    );
    expect(eth2lds.some((n) => n.wrappedOwner)).toBe(true);
    expect(eth2lds.some((n) => !n.wrappedOwner && !n.unwrapped)).toBe(true);
    for (const n of eth2lds) {
      const t = await tokensOf(n);
      const labelhash = keccak256(stringToBytes(n.labels[0]!));
      const erc721 = t.tokens.find((x: any) => x.token.assetNamespace === "erc721");
      const onchain = (await client(31337).readContract({
        address: contract("ensroot", "BaseRegistrar"),
        abi: BaseRegistrarAbi,
        functionName: "ownerOf",
        args: [BigInt(labelhash)],
      })) as Address;
      expect(erc721.token).toEqual({
        assetNamespace: "erc721",
        contract: { chainId: 31337, address: contract("ensroot", "BaseRegistrar") },
        tokenId: labelhash,
      });
      expect(erc721.ownership.owner).toEqual({ chainId: 31337, address: onchain.toLowerCase() });
      expect(erc721.ownership.ownershipType).toBe(
        onchain.toLowerCase() === ethWrapper() ? "namewrapper" : "fully-onchain",
      );
      expect(erc721.mintStatus).toBe("minted");
      const erc1155 = t.tokens.find((x: any) => x.token.assetNamespace === "erc1155");
      const wrappedOnchain = (await client(31337).readContract({
        address: ethWrapper(),
        abi: NameWrapperAbi,
        functionName: "ownerOf",
        args: [BigInt(n.node)],
      })) as Address;
      if (n.wrappedOwner) {
        expect(t.tokens).toHaveLength(2);
        expect(erc721.ownership.ownershipType).toBe("namewrapper");
        expect(erc1155.ownership).toEqual({
          ownershipType: "fully-onchain",
          owner: { chainId: 31337, address: wrappedOnchain.toLowerCase() },
        });
        const balance = await client(31337).readContract({
          address: ethWrapper(),
          abi: NameWrapperAbi,
          functionName: "balanceOf",
          args: [wrappedOnchain, BigInt(n.node)],
        });
        expect(balance).toBe(1n);
        expect(erc1155.mintStatus).toBe("minted");
      } else if (n.unwrapped) {
        expect(wrappedOnchain).toBe(zeroAddress);
        expect(erc1155).toMatchObject({
          ownership: { ownershipType: "burned", owner: { address: zeroAddress } },
          mintStatus: "burned",
        });
      } else {
        expect(t.tokens).toHaveLength(1);
      }
      expect(t.domainId).toBe(n.node);
      expect(t.expiresAt).toBe(
        Number(
          await client(31337).readContract({
            address: contract("ensroot", "BaseRegistrar"),
            abi: BaseRegistrarAbi,
            functionName: "nameExpires",
            args: [BigInt(labelhash)],
          }),
        ),
      );
    }
  });

  it("answers by name as by domainId", async () => {
    const n = names.find(
      (x) =>
        x.chainId === 31337 &&
        x.labels.length === 2 &&
        x.labels[1] === "eth" &&
        x.wrappedOwner &&
        /^[a-z0-9]+$/.test(x.labels[0]!),
    )!;
    const byName = await get(`/api/name-tokens?name=${encodeURIComponent(n.name)}`);
    const byId = await get(`/api/name-tokens?domainId=${n.node}`);
    expect(byName.status).toBe(200);
    expect(byName.body.registeredNameTokens.tokens).toEqual(byId.body.registeredNameTokens.tokens);
    expect(byName.body.registeredNameTokens.name).toBe(n.name);
    expect((await get("/api/name-tokens?name=never-registered-here.eth")).status).toBe(404);
  });

  it("matches ownerOf/balanceOf for Basenames and Lineanames (wrapped ones held by the Linea NameWrapper)", async () => {
    const l2 = names.filter(
      (n) => (n.chainId === 31338 || n.chainId === 31339) && n.labels.length === 3 && n.registrant,
    );
    expect(l2.some((n) => n.chainId === 31339 && n.wrappedOwner)).toBe(true);
    for (const n of l2) {
      const ds = n.chainId === 31338 ? "basenames" : "lineanames";
      const t = await tokensOf(n);
      const labelhash = keccak256(stringToBytes(n.labels[0]!));
      const onchain = (
        (await client(n.chainId).readContract({
          address: contract(ds, "BaseRegistrar"),
          abi: BaseRegistrarAbi,
          functionName: "ownerOf",
          args: [BigInt(labelhash)],
        })) as Address
      ).toLowerCase();
      const erc721 = t.tokens.find((x: any) => x.token.assetNamespace === "erc721");
      expect(erc721.token.contract).toEqual({ chainId: n.chainId, address: contract(ds, "BaseRegistrar") });
      expect(erc721.ownership).toEqual({
        ownershipType: ds === "lineanames" && onchain === lineaWrapper() ? "namewrapper" : "unknown",
        owner: { chainId: n.chainId, address: onchain },
      });
      if (ds === "lineanames" && n.wrappedOwner) {
        const erc1155 = t.tokens.find((x: any) => x.token.assetNamespace === "erc1155");
        expect(erc1155.token.contract).toEqual({ chainId: n.chainId, address: lineaWrapper() });
        const balance = await client(n.chainId).readContract({
          address: lineaWrapper(),
          abi: NameWrapperAbi,
          functionName: "balanceOf",
          args: [erc1155.ownership.owner.address, BigInt(n.node)],
        });
        expect(balance).toBe(1n);
        expect(erc1155.ownership.ownershipType).toBe("unknown");
      }
    }
  });

  it("matches balanceOf for 3DNS tokens, and shows a burned one as burned", async () => {
    const threedns = names.filter((n) => n.via === "3dns");
    expect(threedns.some((n) => n.deleted)).toBe(true);
    const token = contract("threednsBase", "ThreeDNSToken");
    for (const n of threedns) {
      const t = await tokensOf(n);
      expect(t.tokens).toHaveLength(1);
      const [x] = t.tokens;
      expect(x.token).toEqual({
        assetNamespace: "erc1155",
        contract: { chainId: n.chainId, address: token },
        tokenId: n.node,
      });
      const onchainOwner = (
        (await client(n.chainId).readContract({
          address: token,
          abi: ThreeDNSReadAbi,
          functionName: "owner",
          args: [n.node],
        })) as Address
      ).toLowerCase();
      if (n.deleted) {
        expect(x).toMatchObject({
          ownership: { ownershipType: "burned", owner: { address: zeroAddress } },
          mintStatus: "burned",
        });
      } else {
        expect(x.ownership.owner.address).toBe(onchainOwner);
        const balance = await client(n.chainId).readContract({
          address: token,
          abi: ThreeDNSReadAbi,
          functionName: "balanceOf",
          args: [onchainOwner as Address, BigInt(n.node)],
        });
        expect(balance).toBe(1n);
        expect(x.mintStatus).toBe("minted");
      }
    }
  });

  it("keeps an expired name's last owner, with an expiry in the past, where ownerOf reverts", async () => {
    const n = names.find(
      (x) => x.chainId === 31337 && x.labels.length === 2 && x.labels[1] === "eth" && x.registrant && !x.wrappedOwner,
    )!;
    const before = await tokensOf(n);
    const root = client(31337);
    // Every chain past the expiry and the 90-day grace period of every scenario name (all chains: omnichain order).
    const now = await alignClocks(Number((await root.getBlock()).timestamp) + 5 * 365 * 86_400);
    expect(before.expiresAt).toBeLessThan(now);
    await waitFor(
      async () => (await get(`/api/name-tokens?domainId=${n.node}`)).body.registeredNameTokens?.accurateAsOf >= now,
      60_000,
      "the index to pass the time jump",
    );
    const labelhash = keccak256(stringToBytes(n.labels[0]!));
    await expect(
      root.readContract({
        address: contract("ensroot", "BaseRegistrar"),
        abi: BaseRegistrarAbi,
        functionName: "ownerOf",
        args: [BigInt(labelhash)],
      }),
    ).rejects.toThrow();
    const after = await tokensOf(n);
    expect(after.tokens).toEqual(before.tokens);
    expect(after.expiresAt).toBe(before.expiresAt);
    expect(after.accurateAsOf).toBeGreaterThanOrEqual(now);
  });
});
