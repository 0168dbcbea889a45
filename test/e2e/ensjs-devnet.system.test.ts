import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  getDecodedName,
  getNameHistory,
  getNamesForAddress,
  getSubgraphRecords,
  getSubgraphRegistrant,
  getSubnames,
} from "@ensdomains/ensjs/subgraph";
import { type Address, createPublicClient, getAddress, type Hex, http, type PublicClient, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NameFacts } from "../../devnet/src/index";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { indexerOptionsFor, type RunningIndexer, settledStatus, startIndexer } from "../../harness/indexer-harness";
import { ingestDemoLabelSet, type LabelsServer, startLabelsServer } from "../../labels-service/src/index";
import { labelhashOf } from "../../src/lib/labels";
import { ensjsClient } from "../support/ensjs-client";

/*
 * A real client, unchanged: every @ensdomains/ensjs 4 subgraph function against /subgraph of an indexer of the devnet,
 * in both modes — the default mode (ENS root chain, Basenames, Lineanames and 3DNS in one index) and the
 * subgraph-compatible mode (root chain only). Answers are compared with eth_call reads of the chains and with the
 * scenario's facts. The ids are what makes this work: the root chain's rows have The Graph's ids (ensjs builds a
 * Resolver id as `<address>-<node>` and reads a NewResolver's resolver as `id.split('-')[0]`), the L2s' rows the
 * same with `-<chainId>` appended.
 */

const ROOT = 31337;
const BASE = 31338;
const LINEA = 31339;
const ZERO = "0x0000000000000000000000000000000000000000";
const ADDR_REVERSE = "addr.reverse";

const registryAbi = parseAbi([
  "function owner(bytes32 node) view returns (address)",
  "function resolver(bytes32 node) view returns (address)",
]);
const resolverAbi = parseAbi([
  "function text(bytes32 node, string key) view returns (string)",
  "function addr(bytes32 node) view returns (address)",
  "function addr(bytes32 node, uint256 coinType) view returns (bytes)",
]);
const registrarAbi = parseAbi(["function ownerOf(uint256 id) view returns (address)"]);
// ENSIP-11 coin types of the L2s (BigInt: `0x80000000 | n` on numbers is a signed 32-bit result).
const COIN_TYPES = [60n, 0n, 2147492101n, 0x80000000n | BigInt(BASE), 0x80000000n | BigInt(LINEA)];

let env: DevnetWithLabels;
let subgraphLabels: LabelsServer;
const indexers: Partial<Record<Mode, RunningIndexer>> = {};
let names: NameFacts[];
let unhealable: Set<string>;
let oddLabels: Set<string>;
let accounts: string[];
const chains = new Map<number, PublicClient>();

type Mode = "default" | "compat";

beforeAll(async () => {
  env = await startDevnetWithLabels({ seed: 5, names: 24 });
  const scenario = env.devnet.manifest.scenario as {
    names: NameFacts[];
    labels: string[];
    unhealableLabels: string[];
    oddLabels: Record<string, string>;
    accounts: string[];
  };
  names = scenario.names;
  unhealable = new Set(scenario.unhealableLabels);
  oddLabels = new Set(Object.values(scenario.oddLabels));
  accounts = scenario.accounts.map((a) => a.toLowerCase());
  for (const id of [ROOT, BASE, LINEA]) {
    chains.set(
      id,
      createPublicClient({ transport: http(env.devnet.manifest.chains[String(id)]!.rpcUrl) }) as PublicClient,
    );
  }
  // Compatible mode heals with the "subgraph" label set (the same labels, under the subgraph's id).
  const subgraphDb = join(env.labelsDbPath, "..", "subgraph-labels.sqlite");
  await ingestDemoLabelSet({
    dbPath: subgraphDb,
    labelSetId: "subgraph",
    extraLabels: scenario.labels,
    excludeLabels: scenario.unhealableLabels,
  });
  subgraphLabels = await startLabelsServer({ dbPath: subgraphDb, port: 0, host: "127.0.0.1" });

  const [dflt, compat] = await Promise.all([
    startIndexer(
      indexerOptionsFor(env, {
        plugins: ["subgraph", "basenames", "lineanames", "threedns", "registrars"],
        database: "pglite",
      }),
    ),
    startIndexer({
      manifestPath: env.devnet.manifestPath,
      labelsServiceUrl: subgraphLabels.url,
      plugins: ["subgraph"],
      database: "pglite",
      extraEnv: { SUBGRAPH_COMPAT: "true" },
    }),
  ]);
  indexers.default = dflt;
  indexers.compat = compat;
  for (const [mode, indexer] of Object.entries(indexers)) {
    try {
      await settledStatus(indexer!, 3_000, 300_000);
    } catch (error) {
      console.error(
        `[ensjs-devnet] ${mode} indexer:\n${readFileSync(indexer!.logFile, "utf8").split("\n").slice(-40).join("\n")}`,
      );
      throw error;
    }
  }
}, 420_000);

afterAll(async () => {
  for (const indexer of Object.values(indexers)) await indexer?.stop();
  await subgraphLabels?.close();
  await env?.stop();
});

// ---- the chains' own answers -------------------------------------------------------------------------------------

const contractOf = (ds: string, name: string) =>
  env.devnet.manifest.datasources[ds as keyof typeof env.devnet.manifest.datasources]!.contracts[name]!
    .address as Address;

/** The registry (or 3DNS token) that holds a scenario name, on its chain. */
const isThreeDns = (f: NameFacts) => f.via === "3dns" || f.via === "3dns-subname";

function registryOf(f: NameFacts): Address {
  if (isThreeDns(f)) return contractOf("threednsBase", "ThreeDNSToken");
  if (f.chainId === BASE) return contractOf("basenames", "Registry");
  if (f.chainId === LINEA) return contractOf("lineanames", "Registry");
  return contractOf("ensroot", "Registry");
}

async function registryRead(f: NameFacts, functionName: "owner" | "resolver"): Promise<string> {
  const value = await chains
    .get(f.chainId)!
    .readContract({ address: registryOf(f), abi: registryAbi, functionName, args: [f.node] });
  return value.toLowerCase();
}

/** Text keys (of those the scenario and the index mention) with a value, and coin types with an address, onchain. */
async function onchainRecords(
  f: NameFacts,
  resolver: Address,
  keys: string[],
  /** Coin types to read besides COIN_TYPES: those the subgraph lists (a full profile sets more than COIN_TYPES). */
  moreCoins: readonly (string | bigint)[] = [],
): Promise<{ texts: string[]; coins: string[] }> {
  const client = chains.get(f.chainId)!;
  const read = <T>(functionName: "text" | "addr", args: readonly unknown[]) =>
    client
      .readContract({ address: resolver, abi: resolverAbi, functionName, args: args as never })
      .then((v) => v as T)
      .catch(() => undefined);
  const texts: string[] = [];
  for (const key of new Set(keys)) if (await read<string>("text", [f.node, key])) texts.push(key);
  const coins: string[] = [];
  for (const coin of new Set([...COIN_TYPES, ...moreCoins.map(BigInt)])) {
    const value = await read<Hex>("addr", [f.node, coin]);
    if (value !== undefined && value !== "0x" && BigInt(value) !== 0n) coins.push(String(coin));
  }
  return { texts: texts.sort(), coins: coins.sort() };
}

/** The address the last AddrChanged/AddressChanged of `resolverId` set for `coin`, from /subgraph. */
async function lastAddressSet(mode: Mode, resolverId: string, coin: string): Promise<string | undefined> {
  const query = `query($r: String!, $c: BigInt!) { multicoinAddrChangeds(first: 1, orderBy: blockNumber, orderDirection: desc,
    where: { resolver: $r, coinType: $c }) { addr } }`;
  const body = await fetch(`${indexers[mode]!.url}/subgraph`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables: { r: resolverId, c: coin } }),
  }).then((r) => r.json() as Promise<{ data?: { multicoinAddrChangeds: { addr: string }[] } }>);
  return body.data?.multicoinAddrChangeds[0]?.addr;
}

// ---- which scenario names each mode indexes ----------------------------------------------------------------------

const chainsOf = (mode: Mode) => (mode === "compat" ? [ROOT] : [ROOT, BASE, LINEA]);
const isPlain = (f: NameFacts) => f.labels.every((l) => !oddLabels.has(l));
const parentOf = (f: NameFacts) => f.labels.slice(1).join(".");
const encodedLabel = (l: string) => `[${labelhashOf(l).slice(2)}]`;

for (const mode of ["default", "compat"] as const) {
  describe(`@ensdomains/ensjs subgraph functions, ${mode} mode`, () => {
    const client = () => ensjsClient(`${indexers[mode]!.url}/subgraph`);
    const indexed = () => names.filter((f) => chainsOf(mode).includes(f.chainId));

    it("getNamesForAddress: an account's names on every indexed chain, with the chains' owners", async () => {
      // The account that owns the most names on the L2s and the root chain together.
      const owned = (a: string) =>
        indexed().filter((f) => f.registryOwner?.toLowerCase() === a && !f.labels.join(".").endsWith(ADDR_REVERSE));
      const me = [...accounts].sort((a, b) => owned(b).length - owned(a).length || (a < b ? -1 : 1))[0]!;
      const expected = owned(me);
      expect(expected.some((f) => f.chainId === ROOT)).toBe(true);
      if (mode === "default") expect(expected.some((f) => f.chainId !== ROOT)).toBe(true);

      const filter = {
        owner: true,
        registrant: false,
        resolvedAddress: false,
        wrappedOwner: false,
        allowExpired: true,
      } as const;
      const result = await getNamesForAddress(client(), { address: getAddress(me), filter, pageSize: 1000 });
      expect(result.map((n) => n.id).sort()).toEqual(expected.map((f) => f.node.toLowerCase()).sort());
      for (const n of result) {
        const f = expected.find((x) => x.node.toLowerCase() === n.id)!;
        expect(n.owner.toLowerCase(), `${f.name} owner`).toBe(await registryRead(f, "owner"));
        expect(n.relation.owner, f.name).toBe(true);
      }
      // Paging by creation time visits the same names once each.
      const paged: string[] = [];
      let previousPage: Awaited<ReturnType<typeof getNamesForAddress>> | undefined;
      for (let i = 0; i < 50; i++) {
        const page = await getNamesForAddress(client(), {
          address: getAddress(me),
          filter,
          pageSize: 3,
          orderBy: "createdAt",
          orderDirection: "asc",
          previousPage,
        });
        paged.push(...page.map((n) => n.id));
        if (page.length < 3) break;
        previousPage = page;
      }
      expect(paged.sort()).toEqual(result.map((n) => n.id).sort());
    }, 60_000);

    it("getSubgraphRecords: the current resolver's text keys and coin types, by name and by resolver address", async () => {
      const withRecords = indexed().filter(
        (f) => isPlain(f) && !f.deleted && f.texts && Object.keys(f.texts).length > 0,
      );
      const seen = new Map<number, number>();
      for (const f of withRecords) {
        const resolver = (await registryRead(f, "resolver")) as Address;
        if (resolver === ZERO) continue;
        const inherited = await getSubgraphRecords(client(), { name: f.name });
        expect(inherited, f.name).not.toBeNull();
        expect(inherited!.isMigrated, `${f.name} isMigrated`).toBe(f.migrated ?? true);
        const onchain = await onchainRecords(
          f,
          resolver,
          [...Object.keys(f.texts!), ...inherited!.texts],
          inherited!.coins,
        );
        expect([...new Set(inherited!.texts)].sort(), `${f.name} texts`).toEqual(onchain.texts);
        // The subgraph lists every coin type ever set (The Graph's Resolver.coinTypes only grows): one set and cleared
        // since (an L2 primary name's own coin type, say) is listed without an address onchain.
        const listed = [...new Set(inherited!.coins)].sort();
        expect(listed, `${f.name} coins`).toEqual(expect.arrayContaining(onchain.coins));
        for (const coin of listed.filter((c) => !onchain.coins.includes(c))) {
          const resolverId = f.chainId === ROOT ? `${resolver}-${f.node}` : `${resolver}-${f.node}-${f.chainId}`;
          expect(
            await lastAddressSet(mode, resolverId.toLowerCase(), coin),
            `${f.name} coin ${coin}: cleared since`,
          ).toMatch(/^0x0*$/);
        }
        if (onchain.texts.length === 0) continue;
        seen.set(f.chainId, (seen.get(f.chainId) ?? 0) + 1);

        const byAddress = await getSubgraphRecords(client(), { name: f.name, resolverAddress: getAddress(resolver) });
        if (f.chainId === ROOT) {
          // ensjs builds the Resolver id `<address>-<node>` itself: the root chain's rows have exactly that id.
          expect({ texts: byAddress!.texts, coins: byAddress!.coins }, `${f.name} by resolver address`).toEqual({
            texts: inherited!.texts,
            coins: inherited!.coins,
          });
        } else {
          // By construction ensjs cannot name another chain's resolver: `<address>-<node>` is the root chain's id
          // (the L2 row is `<address>-<node>-<chainId>`, docs/api.md), so it finds no resolver and no records.
          expect({ texts: byAddress!.texts, coins: byAddress!.coins }, `${f.name} by resolver address`).toEqual({
            texts: [],
            coins: [],
          });
        }
      }
      for (const chainId of chainsOf(mode))
        expect(seen.get(chainId) ?? 0, `names with records on chain ${chainId}`).toBeGreaterThan(0);
      expect(await getSubgraphRecords(client(), { name: "not-registered-anywhere.eth" })).toBeNull();
    }, 120_000);

    it("getSubgraphRecords with an earlier resolver's address (from getNameHistory): that resolver's records", async () => {
      let compared = 0;
      for (const f of indexed().filter((x) => x.chainId === ROOT && isPlain(x) && x.resolver)) {
        const history = await getNameHistory(client(), { name: f.name });
        const current = await registryRead(f, "resolver");
        const earlier = new Set(
          history!.domainEvents
            .filter((e) => e.type === "NewResolver")
            .map((e) => (e as { resolver: string }).resolver)
            .filter((r) => r !== current && r !== ZERO),
        );
        for (const resolver of earlier) {
          const records = await getSubgraphRecords(client(), { name: f.name, resolverAddress: getAddress(resolver) });
          const onchain = await onchainRecords(
            f,
            resolver as Address,
            [...Object.keys(f.texts ?? {}), ...records!.texts],
            records!.coins,
          );
          expect([...new Set(records!.texts)].sort(), `${f.name} texts on ${resolver}`).toEqual(onchain.texts);
          expect([...new Set(records!.coins)].sort(), `${f.name} coins on ${resolver}`).toEqual(onchain.coins);
          if (onchain.texts.length + onchain.coins.length > 0) compared++;
        }
      }
      console.log(`[ensjs-devnet] ${mode}: records on earlier resolvers compared for ${compared} name/resolver pairs`);
      expect(compared).toBeGreaterThan(0);
    }, 120_000);

    it("getSubgraphRegistrant: the .eth base registrar's ownerOf; other names are refused by ensjs itself", async () => {
      const registrar = contractOf("ensroot", "BaseRegistrar");
      let compared = 0;
      for (const f of names.filter(
        (x) => x.chainId === ROOT && x.labels.length === 2 && x.labels[1] === "eth" && isPlain(x),
      )) {
        const onchain = await chains
          .get(ROOT)!
          .readContract({
            address: registrar,
            abi: registrarAbi,
            functionName: "ownerOf",
            args: [BigInt(labelhashOf(f.labels[0]!))],
          })
          .catch(() => undefined); // not registered through the registrar (an old-registry name), or expired
        if (onchain === undefined) continue;
        expect(await getSubgraphRegistrant(client(), { name: f.name }), f.name).toBe(getAddress(onchain));
        compared++;
      }
      expect(compared).toBeGreaterThan(5);
      // Registrations of base.eth and linea.eth names have the node as id (their labelhashes would collide with
      // .eth's): ensjs only asks for .eth 2LDs, by labelhash, and refuses anything else before asking.
      const l2 = names.find((f) => f.chainId === BASE && f.labels.length === 3)!;
      await expect(getSubgraphRegistrant(client(), { name: l2.name })).rejects.toThrow(/eth-2ld/);
    }, 60_000);

    it("getDecodedName: encoded names decode to the scenario's labels, unhealable labels stay encoded", async () => {
      let complete = 0;
      let partial = 0;
      for (const f of indexed().filter(isPlain)) {
        const encoded = f.labels.map(encodedLabel).join(".");
        const hasUnhealable = f.labels.some((l) => unhealable.has(l));
        const decoded = await getDecodedName(client(), { name: encoded, allowIncomplete: true });
        const strict = await getDecodedName(client(), { name: encoded });
        if (!hasUnhealable) {
          expect(decoded, f.name).toBe(f.name);
          expect(strict, f.name).toBe(f.name);
          complete++;
        } else {
          // A controller's plaintext label can name an unhealable label; the label service cannot.
          const withHashes = f.labels.map((l) => (unhealable.has(l) ? encodedLabel(l) : l)).join(".");
          expect([f.name, withHashes], f.name).toContain(decoded);
          expect(strict, f.name).toBe(decoded === f.name ? f.name : null);
          if (decoded === withHashes) partial++;
        }
      }
      expect(complete).toBeGreaterThan(10);
      expect(partial).toBeGreaterThan(0);
    }, 120_000);

    it("getNameHistory: event ids parse as The Graph's, NewResolver events name the resolver address", async () => {
      const seen = new Map<number, number>();
      for (const f of indexed().filter((x) => isPlain(x) && x.resolver)) {
        const history = await getNameHistory(client(), { name: f.name });
        expect(history, f.name).not.toBeNull();
        const chain = chains.get(f.chainId)!;
        const all = [
          ...history!.domainEvents,
          ...(history!.registrationEvents ?? []),
          ...(history!.resolverEvents ?? []),
        ];
        for (const event of all) {
          const parts = event.id.split("-");
          // `<block>-<logIndex>[-<i>]` on the root chain, `-<chainId>` appended on the L2s.
          if (f.chainId !== ROOT) expect(parts.pop(), `${f.name} ${event.type} ${event.id}`).toBe(String(f.chainId));
          expect(parts.length, `${f.name} ${event.type} ${event.id}`).toBe(event.type === "WrappedTransfer" ? 3 : 2);
          expect(parts[0], `${f.name} ${event.type} ${event.id}`).toBe(String(event.blockNumber));
          const receipt = await chain.getTransactionReceipt({ hash: event.transactionID as Hex });
          const log = receipt.logs.find((l) => l.logIndex === Number(parts[1]));
          expect(
            log,
            `${f.name} ${event.type} ${event.id}: a log at that index in ${event.transactionID}`,
          ).toBeDefined();
          expect(Number(log!.blockNumber), `${f.name} ${event.type} ${event.id}`).toBe(event.blockNumber);
        }
        // In chain order (the list is ordered by id, as text).
        const position = (id: string) => id.split("-").slice(0, 2).map(Number) as [number, number];
        const resolvers = history!.domainEvents
          .filter((e) => e.type === "NewResolver")
          .sort((a, b) => position(a.id)[0] - position(b.id)[0] || position(a.id)[1] - position(b.id)[1])
          .map((e) => (e as { resolver: string }).resolver);
        for (const r of resolvers) expect(r, `${f.name} NewResolver`).toMatch(/^0x[0-9a-f]{40}$/);
        // A 3DNS registration or subname links its resolver without a registry event.
        if (isThreeDns(f)) continue;
        expect(resolvers.length, f.name).toBeGreaterThan(0);
        expect(resolvers.at(-1), `${f.name} latest NewResolver`).toBe(await registryRead(f, "resolver"));
        seen.set(f.chainId, (seen.get(f.chainId) ?? 0) + 1);
      }
      for (const chainId of chainsOf(mode))
        expect(seen.get(chainId) ?? 0, `names with a resolver on chain ${chainId}`).toBeGreaterThan(1);
    }, 240_000);

    it("getSubnames: the children the chains still hold, under a root 2LD and under base.eth and linea.eth", async () => {
      const childrenOf = (parent: string, chainIds: number[]) =>
        names.filter((f) => chainIds.includes(f.chainId) && parentOf(f) === parent);
      // The root chain's plain-labelled 2LD with the most subnames in the scenario.
      const counts = new Map<string, number>();
      for (const f of names.filter((x) => x.chainId === ROOT && isPlain(x) && x.labels.length === 3))
        counts.set(parentOf(f), (counts.get(parentOf(f)) ?? 0) + 1);
      const rootParent = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]![0];
      const parents: [string, number[]][] = [
        [rootParent, [ROOT]],
        ["base.eth", [BASE]],
        ["linea.eth", [LINEA]],
      ];
      for (const [parent, chainIds] of parents) {
        const candidates = childrenOf(parent, chainIds);
        expect(candidates.length, parent).toBeGreaterThan(parent === rootParent ? 0 : 1);
        // ensjs leaves out "deleted" children: no owner and no resolver.
        const expected: NameFacts[] = [];
        for (const f of candidates)
          if ((await registryRead(f, "owner")) !== ZERO || (await registryRead(f, "resolver")) !== ZERO)
            expected.push(f);
        const subnames = await getSubnames(client(), { name: parent, allowExpired: true, pageSize: 1000 });
        if (!chainsOf(mode).includes(chainIds[0]!)) {
          expect(subnames, `${parent} is not indexed in ${mode} mode`).toEqual([]);
          continue;
        }
        expect(subnames.map((n) => n.id).sort(), parent).toEqual(expected.map((f) => f.node.toLowerCase()).sort());
        for (const n of subnames) {
          const f = expected.find((x) => x.node.toLowerCase() === n.id)!;
          expect(n.owner.toLowerCase(), `${f.name} owner`).toBe(await registryRead(f, "owner"));
          expect(n.parentName, f.name).toBe(parent);
        }
      }
    }, 120_000);
  });
}

describe("registrar actions (default mode)", () => {
  it("each action's eventIds start with the id of the subgraph's NameRegistered or NameRenewed row", async () => {
    const indexer = indexers.default!;
    const res = await fetch(`${indexer.url}/api/registrar-actions?limit=100`);
    const body = (await res.json()) as {
      registrarActions: {
        action: {
          id: string;
          type: string;
          block: { number: number };
          transactionHash: string;
          registrationLifecycle: { subregistry: { subregistryId: { chainId: number } } };
        };
      }[];
      pageContext: { hasNext: boolean };
    };
    expect(res.status).toBe(200);
    expect(body.pageContext.hasNext).toBe(false);
    const actions = body.registrarActions.map((a) => a.action);
    expect(new Set(actions.map((a) => a.registrationLifecycle.subregistry.subregistryId.chainId))).toEqual(
      new Set([ROOT, BASE, LINEA]),
    );
    const query = `query($ids: [ID!]) { nameRegistereds(first: 1000, where: { id_in: $ids }) { id blockNumber transactionID }
      nameReneweds(first: 1000, where: { id_in: $ids }) { id blockNumber transactionID } }`;
    const graph = await fetch(`${indexer.url}/subgraph`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query, variables: { ids: actions.map((a) => a.id) } }),
    }).then(
      (r) =>
        r.json() as Promise<{ data: Record<string, { id: string; blockNumber: number; transactionID: string }[]> }>,
    );
    const rows = new Map([...graph.data.nameRegistereds!, ...graph.data.nameReneweds!].map((r) => [r.id, r]));
    for (const a of actions) {
      const chainId = a.registrationLifecycle.subregistry.subregistryId.chainId;
      // `<block>-<logIndex>` on the root chain, `-<chainId>` appended on the L2s.
      const [block, , ...rest] = a.id.split("-");
      expect(rest, a.id).toEqual(chainId === ROOT ? [] : [String(chainId)]);
      expect(Number(block), a.id).toBe(a.block.number);
      expect(rows.get(a.id), `${a.type} ${a.id} on chain ${chainId}`).toMatchObject({
        blockNumber: a.block.number,
        transactionID: a.transactionHash,
      });
    }
  }, 60_000);
});
