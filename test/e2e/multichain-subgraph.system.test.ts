import { readFileSync } from "node:fs";
import { type Abi, type Address, createPublicClient, type Hex, http, namehash, type PublicClient } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetAbis, type NameFacts } from "../../devnet/src/index";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { type RunningIndexer, startIndexer, waitFor } from "../../harness/indexer-harness";
import { labelhashOf } from "../../src/lib/labels";

/*
 * The subgraph, basenames, lineanames and threedns plugins together on the devnet (PGlite): Basenames (chain 31338),
 * Lineanames (31339) and 3DNS (31338) names land in the same domain table as ENS, under the root chain's rows, with
 * the owners the scenario left onchain; the root chain's `eth` keeps its owner. Then every L2 scenario name's
 * owner, resolver, registrant, wrapped owner, wrapper fuses/expiry, expiry and resolver records through /subgraph
 * equal eth_call reads of the L2 contracts themselves (not the scenario's own bookkeeping).
 */

const BASE = 31338;
const LINEA = 31339;
const ZERO = "0x0000000000000000000000000000000000000000";

type Domain = {
  id: string;
  name: string | null;
  labelName: string | null;
  owner: { id: string };
  parent: { id: string } | null;
};

let env: DevnetWithLabels;
let indexer: RunningIndexer;
let names: NameFacts[];
let unhealable: Set<string>;
let ensRootBaseRegistrar: string;

async function subgraph<T>(query: string): Promise<T> {
  const res = await fetch(`${indexer.url}/subgraph`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query }),
  });
  const body = (await res.json()) as { data?: T; errors?: unknown };
  if (!res.ok || body.errors) throw new Error(`subgraph query failed (${res.status}): ${JSON.stringify(body.errors)}`);
  return body.data!;
}

const FIELDS = "id name labelName owner { id } parent { id }";

/** The index's name for a scenario name: each label plaintext, or `[labelhash]` when the label service lacks it. */
function acceptedNames(f: NameFacts): string[] {
  const encoded = f.labels.map((l) => (unhealable.has(l) ? `[${labelhashOf(l).slice(2)}]` : l)).join(".");
  return [...new Set([f.name, encoded])];
}

function expectMatches(domains: Domain[], expected: NameFacts[]) {
  expect(expected.length).toBeGreaterThan(0);
  const byId = new Map(domains.map((d) => [d.id, d]));
  for (const f of expected) {
    const d = byId.get(f.node.toLowerCase());
    expect(d, `${f.name} (${f.via}) is indexed`).toBeDefined();
    expect(acceptedNames(f), `${f.name} (${f.via}) name`).toContain(d!.name);
    expect(d!.owner.id, `${f.name} (${f.via}) owner`).toBe((f.registryOwner ?? ZERO).toLowerCase());
  }
  // Nothing else under the suffix: the query returns exactly the scenario's names.
  expect(domains.map((d) => d.id).sort()).toEqual(expected.map((f) => f.node.toLowerCase()).sort());
}

beforeAll(async () => {
  env = await startDevnetWithLabels({ seed: 11, names: 24 });
  const manifest = env.devnet.manifest;
  const scenario = manifest.scenario as { names: NameFacts[]; unhealableLabels: string[] };
  names = scenario.names;
  unhealable = new Set(scenario.unhealableLabels);
  ensRootBaseRegistrar = (manifest.datasources.ensroot!.contracts.BaseRegistrar!.address as Address).toLowerCase();
  indexer = await startIndexer({
    manifestPath: env.devnet.manifestPath,
    labelsServiceUrl: env.labelsUrl,
    plugins: ["subgraph", "basenames", "lineanames", "threedns"],
    // PGlite, the default: its API shares the indexer's one session, where Ponder's flush leaves temp tables named
    // like ours (src/api/server/pglite-safe-db.ts); this run proves /subgraph still reads the index there.
    database: "pglite",
  });
  try {
    await waitFor(
      async () => (await fetch(`${indexer.url}/ready`).catch(() => undefined))?.status === 200,
      240_000,
      "/ready",
    );
  } catch (error) {
    console.error(readFileSync(indexer.logFile, "utf8").split("\n").slice(-60).join("\n"));
    throw error;
  }
}, 400_000);

afterAll(async () => {
  await indexer?.stop();
  await env?.stop();
});

describe("basenames, lineanames and threedns in the subgraph tables", () => {
  it("indexes every Basenames name under base.eth with its owner", async () => {
    const { domains } = await subgraph<{ domains: Domain[] }>(
      `{ domains(first: 1000, where: { name_ends_with: ".base.eth" }) { ${FIELDS} } }`,
    );
    const expected = names.filter((f) => f.chainId === BASE && f.via !== "3dns" && f.name.endsWith(".base.eth"));
    expect(expected.some((f) => f.via === "basenames-premint")).toBe(true);
    expectMatches(domains, expected);
    // Preminted names are named too (healed at NameRegistered).
    for (const f of expected.filter((n) => n.via === "basenames-premint")) {
      expect(domains.find((d) => d.id === f.node.toLowerCase())!.labelName).toBe(f.labels[0]);
    }
  });

  it("indexes every Lineanames name under linea.eth with its owner", async () => {
    const { domains } = await subgraph<{ domains: Domain[] }>(
      `{ domains(first: 1000, where: { name_ends_with: ".linea.eth" }) { ${FIELDS} } }`,
    );
    expectMatches(
      domains,
      names.filter((f) => f.chainId === LINEA && f.name.endsWith(".linea.eth")),
    );
  });

  it("indexes every 3DNS name under its TLD with its owner", async () => {
    const expected = names.filter((f) => f.via === "3dns");
    const tlds = [...new Set(expected.map((f) => f.labels[f.labels.length - 1]!))];
    const { domains } = await subgraph<{ domains: Domain[] }>(
      `{ domains(first: 1000, where: { parent_in: ${JSON.stringify(tlds.map((t) => namehash(t)))} }) { ${FIELDS} } }`,
    );
    expectMatches(domains, expected);
    const { tldDomains } = await subgraph<{ tldDomains: Domain[] }>(
      `{ tldDomains: domains(where: { id_in: ${JSON.stringify(tlds.map((t) => namehash(t)))} }) { ${FIELDS} } }`,
    );
    expect(tldDomains.map((d) => d.name).sort()).toEqual([...tlds].sort());
    for (const d of tldDomains) expect(d.parent?.id).toBe(namehash(""));
  });

  it("keeps the root chain's eth and hangs base.eth and linea.eth under it", async () => {
    const ids = ["eth", "base.eth", "linea.eth"].map((n) => namehash(n));
    const { domains } = await subgraph<{ domains: Domain[] }>(
      `{ domains(where: { id_in: ${JSON.stringify(ids)} }) { ${FIELDS} } }`,
    );
    const byName = new Map(domains.map((d) => [d.name, d]));
    expect(byName.get("eth")?.owner.id).toBe(ensRootBaseRegistrar);
    expect(byName.get("base.eth")?.parent?.id).toBe(namehash("eth"));
    expect(byName.get("linea.eth")?.parent?.id).toBe(namehash("eth"));
  });

  it("answers one query with domains of all four sources", async () => {
    const pick = (p: (f: NameFacts) => boolean) => names.find((f) => p(f) && !f.deleted)!;
    const sample = [
      pick((f) => f.chainId !== BASE && f.chainId !== LINEA && f.name.endsWith(".eth") && f.labels.length === 2),
      pick((f) => f.chainId === BASE && f.via !== "3dns" && f.name.endsWith(".base.eth")),
      pick((f) => f.chainId === LINEA && f.name.endsWith(".linea.eth")),
      pick((f) => f.via === "3dns"),
    ];
    const { domains } = await subgraph<{ domains: Domain[] }>(
      `{ domains(where: { id_in: ${JSON.stringify(sample.map((f) => f.node.toLowerCase()))} }) { ${FIELDS} } }`,
    );
    expectMatches(domains, sample);
  });
});

// ---- every L2 scenario name against eth_call ---------------------------------------------------------------------

type FullDomain = {
  id: string;
  owner: { id: string };
  registrant: { id: string } | null;
  wrappedOwner: { id: string } | null;
  expiryDate: string | null;
  resolver: {
    address: string;
    addr: { id: string } | null;
    texts: string[] | null;
    coinTypes: string[] | null;
    contentHash: string | null;
  } | null;
  wrappedDomain: { fuses: number; expiryDate: string; owner: { id: string } } | null;
};

const PARENT_CANNOT_CONTROL = 1 << 16;
const TEXT_KEYS = ["url", "avatar", "description", "com.twitter"];
// Every coin type the scenario writes: ETH, BTC, Base's, and each devnet L2's own (its primary names, ENSIP-19).
const COIN_TYPES = [60n, 0n, 2147492101n, 0x80000000n | BigInt(BASE), 0x80000000n | BigInt(LINEA)];

/** What the L2 contracts answer for one name, in the shape the subgraph gives it. */
async function chainFacts(f: NameFacts, pub: PublicClient) {
  const abis = devnetAbis() as Record<string, Abi>;
  const contracts = env.devnet.manifest.datasources;
  const at = (ds: "basenames" | "lineanames" | "threednsBase", name: string) =>
    contracts[ds]!.contracts[name]!.address as Address;
  const read = async <T>(address: Address, abi: Abi, functionName: string, args: unknown[]): Promise<T> =>
    (await pub.readContract({ address, abi, functionName, args })) as T;
  const lower = (a: string) => (BigInt(a) === 0n ? null : a.toLowerCase());
  const is3dns = f.via.startsWith("3dns");
  const ds = f.chainId === LINEA ? "lineanames" : "basenames";
  const registry = is3dns
    ? { address: at("threednsBase", "ThreeDNSToken"), abi: abis.ThreeDNSToken! }
    : { address: at(ds, "Registry"), abi: abis.ENSRegistry! };
  const owner = (await read<Address>(registry.address, registry.abi, "owner", [f.node])).toLowerCase();
  const resolver = lower(await read<Address>(registry.address, registry.abi, "resolver", [f.node]));

  // ERC-721 registrant and expiry (plus the registrar's grace period, as the subgraph stores it) for 2LDs.
  let registrant: string | null = null;
  let expiryDate: string | null = null;
  const is2LD = !is3dns && f.labels.length === 3;
  if (is2LD) {
    const registrar = {
      address: at(ds, "BaseRegistrar"),
      abi: ds === "basenames" ? abis.BasenamesBaseRegistrar! : abis.BaseRegistrarImplementation!,
    };
    const id = BigInt(labelhashOf(f.labels[0]!));
    registrant = (await read<Address>(registrar.address, registrar.abi, "ownerOf", [id])).toLowerCase();
    const expires = await read<bigint>(registrar.address, registrar.abi, "nameExpires", [id]);
    expiryDate = String(expires + (await read<bigint>(registrar.address, registrar.abi, "GRACE_PERIOD", [])));
  } else if (f.via === "3dns" && owner !== ZERO) {
    expiryDate = String(await read<bigint>(registry.address, registry.abi, "expiry", [f.node]));
  }

  // The NameWrapper's view of Lineanames names: holder, fuses, expiry (which bounds a subname once PCC is burned).
  let wrappedOwner: string | null = null;
  let wrappedDomain: FullDomain["wrappedDomain"] = null;
  if (f.chainId === LINEA) {
    const [holder, fuses, expiry] = await read<[Address, number, bigint]>(
      at("lineanames", "NameWrapper"),
      abis.NameWrapper!,
      "getData",
      [BigInt(f.node)],
    );
    wrappedOwner = lower(holder);
    if (wrappedOwner) {
      wrappedDomain = { fuses, expiryDate: String(expiry), owner: { id: wrappedOwner } };
      if (!is2LD && fuses & PARENT_CANNOT_CONTROL) expiryDate = String(expiry);
    }
  }

  let records: { addr: string | null; texts: string[]; coinTypes: string[]; contentHash: string | null } | null = null;
  if (resolver) {
    const r = { address: resolver as Address, abi: abis.ModernResolver! };
    const texts: string[] = [];
    for (const key of TEXT_KEYS) if (await read<string>(r.address, r.abi, "text", [f.node, key])) texts.push(key);
    const coinTypes: string[] = [];
    for (const c of COIN_TYPES)
      if ((await read<Hex>(r.address, r.abi, "addr", [f.node, c])) !== "0x") coinTypes.push(String(c));
    const contentHash = await read<Hex>(r.address, r.abi, "contenthash", [f.node]);
    records = {
      addr: lower(await read<Address>(r.address, r.abi, "addr", [f.node])),
      texts,
      coinTypes,
      contentHash: contentHash === "0x" ? null : contentHash,
    };
  }
  return { owner, resolver, registrant, expiryDate, wrappedOwner, wrappedDomain, records };
}

describe("every L2 scenario name against eth_call reads of the L2 contracts", () => {
  it("owner, resolver, registrant, wrapped owner and fuses, expiry and resolver records", async () => {
    const l2 = names.filter((f) => f.chainId === BASE || f.chainId === LINEA);
    const ids = l2.map((f) => f.node.toLowerCase());
    const { domains } = await subgraph<{ domains: FullDomain[] }>(
      `{ domains(first: 1000, where: { id_in: ${JSON.stringify(ids)} }) { id owner { id } registrant { id } wrappedOwner { id } expiryDate
         resolver { address addr { id } texts coinTypes contentHash } wrappedDomain { fuses expiryDate owner { id } } } }`,
    );
    const byId = new Map(domains.map((d) => [d.id, d]));
    const clients = new Map(
      [BASE, LINEA].map((id) => [
        id,
        createPublicClient({ transport: http(env.devnet.manifest.chains[String(id)]!.rpcUrl) }) as PublicClient,
      ]),
    );
    const seen = {
      names: 0,
      resolvers: 0,
      records: 0,
      registrants: 0,
      wrapped: 0,
      pccExpiries: 0,
      threednsResolvers: 0,
      threednsSubnames: 0,
    };
    for (const f of l2) {
      const d = byId.get(f.node.toLowerCase());
      const what = `${f.name} (${f.via}, chain ${f.chainId})`;
      expect(d, `${what} is indexed`).toBeDefined();
      const chain = await chainFacts(f, clients.get(f.chainId)!);
      expect(d!.owner.id, `${what} owner`).toBe(chain.owner);
      expect(d!.resolver?.address ?? null, `${what} resolver`).toBe(chain.resolver);
      if (f.via !== "3dns") expect(d!.registrant?.id ?? null, `${what} registrant`).toBe(chain.registrant);
      expect(d!.expiryDate, `${what} expiry`).toBe(chain.expiryDate);
      expect(d!.wrappedOwner?.id ?? null, `${what} wrapped owner`).toBe(chain.wrappedOwner);
      if (chain.wrappedDomain && f.labels.length === 3) {
        // NameWrapper.renew (a controller renewing a wrapped 2LD) moves the wrapper's expiry without an event, on
        // mainnet as here, so the index keeps the wrap-time expiry there; the domain's expiry above is the
        // registrar's, which is exact. Owner and fuses must match; the wrapper expiry can only lag.
        const { expiryDate: indexed, ...rest } = d!.wrappedDomain!;
        const { expiryDate: onchain, ...chainRest } = chain.wrappedDomain;
        expect(rest, `${what} wrapped domain`).toEqual(chainRest);
        expect(BigInt(indexed) <= BigInt(onchain), `${what} wrapper expiry ${indexed} ≤ ${onchain}`).toBe(true);
      } else {
        expect(d!.wrappedDomain, `${what} wrapped domain`).toEqual(chain.wrappedDomain);
      }
      if (chain.records) {
        const r = d!.resolver!;
        expect(r.addr?.id ?? null, `${what} addr`).toBe(chain.records.addr);
        expect([...new Set(r.texts ?? [])].sort(), `${what} text keys`).toEqual([...chain.records.texts].sort());
        expect([...new Set((r.coinTypes ?? []).map(String))].sort(), `${what} coin types`).toEqual(
          [...chain.records.coinTypes].sort(),
        );
        expect(r.contentHash, `${what} contenthash`).toBe(chain.records.contentHash);
        if (chain.records.addr || chain.records.texts.length) seen.records++;
      }
      seen.names++;
      if (chain.resolver) seen.resolvers++;
      if (chain.resolver && f.via === "3dns") seen.threednsResolvers++;
      if (chain.resolver && f.via === "3dns-subname") seen.threednsSubnames++;
      if (chain.registrant) seen.registrants++;
      if (chain.wrappedOwner) seen.wrapped++;
      if (chain.wrappedDomain && f.labels.length > 3 && chain.expiryDate) seen.pccExpiries++;
    }
    console.log(`[multichain] compared every L2 scenario name with eth_call: ${JSON.stringify(seen)}`);
    // The comparison means something only if each kind of fact occurs.
    expect(seen.names).toBe(l2.length);
    expect(seen.records).toBeGreaterThan(10);
    expect(seen.registrants).toBeGreaterThan(5);
    expect(seen.wrapped).toBeGreaterThan(3);
    expect(seen.pccExpiries).toBeGreaterThanOrEqual(1);
    expect(seen.threednsResolvers).toBeGreaterThan(1);
    // Registry-style 3DNS subnames (the token's NewOwner), one of them two levels below its registration.
    expect(seen.threednsSubnames).toBeGreaterThanOrEqual(3);
  }, 120_000);
});

describe("events from the index on PGlite", () => {
  it("lists a Basenames resolver's events with the chain's hashes, sender, topics and data", async () => {
    const resolver = names
      .find((f) => f.chainId === BASE && f.resolver && Object.keys(f.texts ?? {}).length > 0)!
      .resolver!.toLowerCase() as Address;
    const res = await fetch(`${indexer.url}/api/omnigraph`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: `query($r: AccountIdInput!) { resolver(by: { contract: $r }) { events(first: 1000) { edges { node {
          blockNumber blockHash logIndex transactionHash from to address topics data } } } } }`,
        variables: { r: { chainId: BASE, address: resolver } },
      }),
    });
    const body = (await res.json()) as { data?: any; errors?: unknown };
    expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
    const events = body.data.resolver.events.edges.map((e: { node: unknown }) => e.node);
    const base = createPublicClient({ transport: http(env.devnet.manifest.chains[String(BASE)]!.rpcUrl) });
    const logs = await base.getLogs({ address: resolver, fromBlock: 0n, toBlock: "latest" });
    expect(events.length).toBeGreaterThan(0);
    const expected = [];
    for (const l of logs.filter((x) =>
      events.some(
        (e: { blockNumber: string; logIndex: number }) =>
          e.blockNumber === String(x.blockNumber) && e.logIndex === x.logIndex,
      ),
    )) {
      const tx = await base.getTransaction({ hash: l.transactionHash! });
      expected.push({
        blockNumber: String(l.blockNumber),
        blockHash: l.blockHash,
        logIndex: l.logIndex,
        transactionHash: l.transactionHash,
        from: tx.from.toLowerCase(),
        to: tx.to?.toLowerCase() ?? null,
        address: resolver,
        topics: l.topics,
        data: l.data,
      });
    }
    // Every listed event is a log of the resolver's, field for field as the chain has it.
    expect(events).toEqual(expected);
  });
});
