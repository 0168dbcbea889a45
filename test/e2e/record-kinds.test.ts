import { readFileSync } from "node:fs";
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  type Hex,
  http,
  namehash,
  type PublicClient,
  parseAbi,
  toHex,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevnetScenario, scenarioOf } from "../../devnet/src/index";
import { nameInputProblem } from "../../src/lib/name-input";
import type { DevnetManifest } from "../../src/namespaces/devnet-manifest";
import { sendAs as sendAsOn, syncClocksAndWaitRealtime as syncClocks } from "../support/chain-clock";
import { type DevnetWithLabels, startDevnetWithLabels } from "../support/devnet-fixture";
import { type RunningIndexer, startIndexer } from "../support/indexer-harness";

/*
 * Every record kind on the devnet (PLUGINS=subgraph,basenames,lineanames,protocol-acceleration,ensv2): pubkey, ABI,
 * interface implementers, DNS zonehash, version and the name record, through /api/resolve/records and the
 * Omnigraph's `records`, answered from the index and forced onchain. The two agree on every scenario name (whose
 * resolvers, old and new, hold every kind somewhere); texts written by the value-less TextChanged are answered by the
 * index; a name given every kind here reads them back from both, equal to the resolver's own eth_call answers, and a
 * clearRecords empties them all. Bad input is a 400 or a GraphQL error, never a 5xx.
 */

const ROOT = 31337;
const BASE = 31338;
const LINEA = 31339;
const CHAINS = [ROOT, BASE, LINEA];
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

let env: DevnetWithLabels;
let manifest: DevnetManifest;
let scenario: DevnetScenario;
let indexer: RunningIndexer;
const clients = new Map<number, PublicClient>();
const statuses: number[] = [];
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

const sendAs = (chainId: number, from: Address, to: Address, data: Hex) =>
  sendAsOn({ rpcUrl: rpcUrl(chainId), client: clients.get(chainId)! }, { from, to, data, fund: true });
const syncClocksAndWaitRealtime = () => syncClocks(CHAINS.map(rpcUrl), indexer.url);

beforeAll(async () => {
  env = await startDevnetWithLabels({ seed: 5, names: 40, mineInterval: 1 });
  manifest = env.devnet.manifest;
  scenario = scenarioOf(manifest);
  for (const chainId of CHAINS)
    clients.set(chainId, createPublicClient({ transport: http(rpcUrl(chainId)) }) as PublicClient);
  indexer = await startIndexer({
    manifestPath: env.devnet.manifestPath,
    labelsServiceUrl: env.labelsUrl,
    plugins: ["subgraph", "basenames", "lineanames", "protocol-acceleration", "ensv2"],
    database: "postgres",
  });
  await indexer.process.ready();
  await syncClocksAndWaitRealtime();
}, 900_000);

afterAll(async () => {
  await indexer?.stop();
  await env?.stop();
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
      await sendAs(BASE, owner, to, encodeFunctionData({ abi: ResolverWrite, functionName, args } as never));
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

    await sendAs(
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
      await sendAs(ROOT, owner, to, encodeFunctionData({ abi: ResolverWrite, functionName, args } as never));
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

    await sendAs(
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
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
  });
});
