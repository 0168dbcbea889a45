import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  type Hex,
  http,
  labelhash,
  namehash,
  type PublicClient,
  parseAbi,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevnetScenario, LOCAL_DEVNET_SHAPE_WITH_OPTIMISM, scenarioOf } from "../../devnet/src/index";
import type { FullProfileFacts } from "../../devnet/src/scenario/full-profile";
import { sendAs, syncClocksAndWaitRealtime } from "../../harness/chain-clock";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { indexerOptionsFor, type RunningIndexer, startIndexer } from "../../harness/indexer-harness";
import { peerCookbook, peerCookbookResponses, skipWithoutPeerOmnigraph } from "../../harness/peer-omnigraph";
import { PLUGIN_NAMES } from "../../src/plugins/names";

/*
 * Does each cookbook answer hold what a real one holds? Every query of the peer's cookbook runs over HTTP against
 * /api/omnigraph on a devnet with an Optimism chain (the cookbook asks for a primary name there) indexed with every
 * plugin (ENSv1 of every chain, ENSv2, resolution from the index), with devnet stand-ins for its mainnet variables
 * taken from the manifest (the names with a full profile, the account with
 * primary names on several chains, the ENSv2 .eth registry, an account holding roles, …). The peer's recorded mainnet
 * answer (responses.json) says which leaf paths a real answer fills; ours must fill each of them, or the leaf must be
 * listed in KNOWN_GAPS with why and which item of issue #41 fills it. A known gap that is filled fails too, so the list
 * only shrinks.
 */

/** Query id → leaf path → why ours leaves it empty, and what would fill it. Empty: every peer leaf is filled. */
const KNOWN_GAPS: Record<string, Record<string, string>> = {};

interface Run {
  /** What stands in for the cookbook's mainnet value, for the report. */
  standIn: string;
  variables: Record<string, unknown>;
}

interface StandIns {
  scenario: DevnetScenario;
  rootChainId: number;
  baseChainId: number;
  fullV1: FullProfileFacts;
  fullV2: FullProfileFacts;
  wildcards: WildcardChild[];
}

/** A name no registry holds, answered by an ancestor's ENSIP-10 extended resolver (written by this test's setup). */
interface WildcardChild {
  version: "ENSv1" | "ENSv2";
  name: string;
  /** The ancestor whose resolver answers for it, and the registry id (the peer's form) of the registry holding it. */
  bearer: string;
  registryId: string;
  resolver: Address;
  addr: Address;
  description: string;
}

const ensv2Registry = ({ scenario, rootChainId }: StandIns) => ({
  chainId: rootChainId,
  address: scenario.ensv2.contracts.ETHRegistry!.toLowerCase(),
});

/** The address a query asks about, for each cookbook query that takes one. */
const primaryAccount = ({ scenario }: StandIns) => scenario.crossChainPrimary.address;

/**
 * The devnet's stand-ins for each cookbook query's variables (one run per stand-in; a query with several must fill
 * every peer leaf in each). A cookbook query missing here fails the test: a new one needs its stand-in.
 */
const STAND_INS: Record<string, (s: StandIns) => Run[]> = {
  "hello-world": (s) => [{ standIn: "the cross-chain primary account", variables: { address: primaryAccount(s) } }],
  "domain-profile": (s) => profileRuns(s),
  "domain-records": (s) => profileRuns(s),
  "domain-profile-and-records": (s) => profileRuns(s),
  "domain-by-name": (s) => profileRuns(s),
  // The devnet has no offchain (CCIP-Read) resolver: a name only a wildcard (ENSIP-10 extended) resolver answers.
  "offchain-name": (s) =>
    s.wildcards.map((w) => ({
      standIn: `${w.name} (${w.version} wildcard of ${w.bearer})`,
      variables: { name: w.name },
    })),
  "find-domains": (s) => [
    {
      standIn: `names starting with ${s.fullV1.name.split(".")[0]}`,
      variables: { name: { starts_with: s.fullV1.name.split(".")[0] }, order: { by: "NAME", dir: "DESC" } },
    },
  ],
  "domain-subdomains": ({ scenario, baseChainId }) => {
    // The cookbook lists base.eth's subnames: the devnet's Basenames parent, from the cross-chain account's name there.
    const managed = scenario.crossChainPrimary.names[String(baseChainId)]!;
    const parent = managed.slice(managed.indexOf(".") + 1);
    return [{ standIn: parent, variables: { name: parent } }];
  },
  "domain-subdomains-recently-registered": () => [{ standIn: "eth", variables: { name: "eth" } }],
  "domain-events": (s) => profileRuns(s),
  "domains-by-address": (s) => [
    { standIn: "the cross-chain primary account", variables: { address: primaryAccount(s) } },
  ],
  "account-primary-names": (s) => [
    { standIn: "the cross-chain primary account", variables: { address: primaryAccount(s) } },
  ],
  "account-primary-name-records": (s) => [
    { standIn: "the cross-chain primary account", variables: { address: primaryAccount(s) } },
  ],
  "account-events": (s) => [{ standIn: "the cross-chain primary account", variables: { address: primaryAccount(s) } }],
  "registry-domains": (s) => [{ standIn: "the ENSv2 .eth registry", variables: { registry: ensv2Registry(s) } }],
  "permissions-by-contract": (s) => [{ standIn: "the ENSv2 .eth registry", variables: { contract: ensv2Registry(s) } }],
  "permissions-by-user": (s) => [
    { standIn: `${s.fullV2.account} (holds ENSv2 name and resolver roles)`, variables: { address: s.fullV2.account } },
  ],
  "account-resolver-permissions": (s) => [
    { standIn: `${s.fullV2.account} (administers a resolver)`, variables: { address: s.fullV2.account } },
  ],
  "domain-resolver": ({ scenario }) => {
    // The cookbook asks for a DNS name: a 3DNS name with a resolver is the devnet's.
    const dns = scenario.names.find((f) => f.via === "3dns" && f.resolver && !f.deleted)!;
    return [{ standIn: `${dns.name} (3DNS)`, variables: { name: dns.name } }];
  },
  namegraph: () => [{ standIn: "(no variables)", variables: {} }],
  "account-migrated-names": ({ scenario }) => {
    const migrated = scenario.ensv2.names.find((f) => f.via.startsWith("migrated") && f.status === "registered")!;
    return [{ standIn: `${migrated.owner} (owns ${migrated.name}, migrated)`, variables: { address: migrated.owner } }];
  },
  "eth-by-version": () => [{ standIn: "(no variables)", variables: {} }],
  "accelerate-resolve": (s) => [
    { standIn: "the cross-chain primary account", variables: { address: primaryAccount(s) } },
  ],
};

/** The profile queries run on both names with a full profile: ENSv1's and ENSv2's. */
function profileRuns({ fullV1, fullV2 }: StandIns): Run[] {
  return [fullV1, fullV2].map((p) => ({ standIn: `${p.name} (${p.version})`, variables: { name: p.name } }));
}

/**
 * The leaf paths a GraphQL answer fills: scalars that are neither null nor "", objects and lists walked into, a list's
 * items generalized as `[]` (so a path is filled when any item fills it).
 */
function filledLeafPaths(value: unknown, path = "", out = new Set<string>()): Set<string> {
  if (value === null || value === undefined || value === "") return out;
  if (Array.isArray(value)) {
    for (const item of value) filledLeafPaths(item, `${path}[]`, out);
  } else if (typeof value === "object") {
    for (const [k, v] of Object.entries(value)) filledLeafPaths(v, path ? `${path}.${k}` : k, out);
  } else {
    out.add(path);
  }
  return out;
}

const lower = (a: string) => a.toLowerCase() as Address;
const RegistryAbi = parseAbi([
  "function setResolver(bytes32 node, address resolver)",
  "function owner(bytes32 node) view returns (address)",
  "function recordExists(bytes32 node) view returns (bool)",
]);
const ResolverAbi = parseAbi([
  "function setText(bytes32 node, string key, string value)",
  "function setAddr(bytes32 node, uint256 coinType, bytes a)",
]);

/**
 * Two names only a wildcard answers, with records written for them: a child of the ENSv2 full profile's name (its
 * PermissionedResolver is ENSIP-10 extended), and a child of an ENSv1 .eth name whose resolver this setup sets to that
 * same resolver (the devnet's ENSv1 resolvers are not extended). Written before the indexer starts.
 */
async function writeWildcards(
  scenario: DevnetScenario,
  rpcUrl: string,
  at: { rootChainId: number; registry: Address; fullV1: FullProfileFacts; fullV2: FullProfileFacts },
): Promise<WildcardChild[]> {
  const chain = { rpcUrl, client: createPublicClient({ transport: http(rpcUrl) }) as PublicClient };
  const send = (from: Address, to: Address, data: Hex) => sendAs(chain, { from, to, data, fund: true });
  const resolver = lower(at.fullV2.resolver);
  const resolverOwner = lower(
    Object.entries(scenario.ensv2.resolvers).find(([, r]) => lower(r) === resolver)?.[0] ?? at.fullV2.account,
  );
  const v2Bearer = scenario.ensv2.names.find((n) => n.name === at.fullV2.name)!;
  const inEnsv2 = new Set([...scenario.ensv2.names, ...scenario.ensv2.v1Fallbacks].map((n) => n.name));
  const candidates = scenario.names.filter(
    (f) =>
      f.chainId === at.rootChainId &&
      f.labels.length === 2 &&
      f.labels[1] === "eth" &&
      /^[a-z0-9-]+$/.test(f.labels[0]!) &&
      !f.deleted &&
      !f.wrappedOwner &&
      f.registryOwner &&
      namehash(f.name) === f.node &&
      f.name !== at.fullV1.name &&
      !inEnsv2.has(f.name),
  );
  // One the registry with fallback holds itself (an old registry's name not migrated cannot be set there).
  const read = (functionName: "owner" | "recordExists", node: Hex) =>
    chain.client.readContract({ address: at.registry, abi: RegistryAbi, functionName, args: [node] });
  let v1Bearer: (typeof candidates)[number] | undefined;
  for (const f of candidates) {
    if (
      (await read("recordExists", f.node)) &&
      lower((await read("owner", f.node)) as string) === lower(f.registryOwner!)
    ) {
      v1Bearer = f;
      break;
    }
  }
  expect(v2Bearer && v1Bearer, "an ENSv2 and an ENSv1 .eth name to hang wildcards under").toBeTruthy();
  if (!v1Bearer) throw new Error("no ENSv1 .eth name to hang a wildcard under");
  await send(
    lower(v1Bearer.registryOwner!),
    at.registry,
    encodeFunctionData({ abi: RegistryAbi, functionName: "setResolver", args: [v1Bearer.node, resolver] }),
  );
  const children: WildcardChild[] = [
    {
      version: "ENSv2",
      name: `offchain.${v2Bearer.name}`,
      bearer: v2Bearer.name,
      registryId: `${at.rootChainId}-${lower(v2Bearer.registry)}`,
      resolver,
      addr: lower(scenario.accounts[1]!),
      description: "answered by an ENSv2 wildcard",
    },
    {
      version: "ENSv1",
      name: `offchain.${v1Bearer.name}`,
      bearer: v1Bearer.name,
      // The registry of an ENSv1 .eth name: the ENS registry's virtual registry of eth's subnames.
      registryId: `${at.rootChainId}-${at.registry}-${namehash("eth")}`,
      resolver,
      addr: lower(scenario.accounts[2]!),
      description: "answered by an ENSv1 wildcard",
    },
  ];
  for (const c of children) {
    const node = namehash(c.name);
    await send(
      resolverOwner,
      resolver,
      encodeFunctionData({ abi: ResolverAbi, functionName: "setAddr", args: [node, 60n, c.addr] }),
    );
    await send(
      resolverOwner,
      resolver,
      encodeFunctionData({ abi: ResolverAbi, functionName: "setText", args: [node, "description", c.description] }),
    );
  }
  return children;
}

/** The shape of an answer: its keys, all the way down (a list by its first item), without the values. */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return [shapeOf(value[0])];
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shapeOf(v)]));
  return "leaf";
}

let env: DevnetWithLabels;
let indexer: RunningIndexer;
let standIns: StandIns;

describe.skipIf(skipWithoutPeerOmnigraph("the cookbook leaves on the devnet"))(
  "the cookbook's leaves on the devnet",
  () => {
    beforeAll(async () => {
      env = await startDevnetWithLabels({
        seed: 17,
        names: 24,
        mineInterval: 1,
        shape: LOCAL_DEVNET_SHAPE_WITH_OPTIMISM,
      });
      const scenario = scenarioOf(env.devnet.manifest);
      const fullV1 = scenario.fullProfiles.find((p) => p.version === "ENSv1")!;
      const fullV2 = scenario.fullProfiles.find((p) => p.version === "ENSv2")!;
      const { datasources } = env.devnet.manifest;
      const rootChainId = datasources.ensroot!.chainId;
      standIns = {
        scenario,
        rootChainId,
        baseChainId: datasources.basenames!.chainId,
        fullV1,
        fullV2,
        wildcards: await writeWildcards(scenario, env.devnet.manifest.chains[String(rootChainId)]!.rpcUrl, {
          rootChainId,
          registry: (datasources.ensroot!.contracts.Registry!.address as string).toLowerCase() as Address,
          fullV1,
          fullV2,
        }),
      };
      indexer = await startIndexer(
        indexerOptionsFor(env, {
          plugins: [...PLUGIN_NAMES],
          database: "postgres",
        }),
      );
      await indexer.process.ready();
      const rpcUrls = Object.values(env.devnet.manifest.chains).map((c) => c.rpcUrl);
      await syncClocksAndWaitRealtime(rpcUrls, indexer.url);
    }, 900_000);

    afterAll(async () => {
      await indexer?.stop();
      await env?.stop();
    });

    it("fills every leaf the peer's recorded answers fill, but for the known gaps", async () => {
      const cookbook = peerCookbook();
      const responses = peerCookbookResponses();
      expect(standIns.fullV1 && standIns.fullV2, "the manifest's full profiles (ENSv1 and ENSv2)").toBeTruthy();
      expect(
        cookbook.map((e) => e.id).filter((id) => !STAND_INS[id]),
        "cookbook queries without a stand-in",
      ).toEqual([]);
      const missingByQuery = new Map<string, Map<string, string[]>>();
      for (const example of cookbook) {
        const peerLeaves = filledLeafPaths(responses[example.id]?.data);
        expect(peerLeaves.size, `${example.id}: the peer's recorded answer`).toBeGreaterThan(0);
        const missing = new Map<string, string[]>();
        for (const run of STAND_INS[example.id]!(standIns)) {
          const res = await fetch(`${indexer.url}/api/omnigraph`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ query: example.query, variables: run.variables }),
          });
          const body = (await res.json()) as { data?: unknown; errors?: unknown };
          expect({ id: example.id, status: res.status, errors: body.errors }).toEqual({
            id: example.id,
            status: 200,
            errors: undefined,
          });
          const ours = filledLeafPaths(body.data);
          for (const leaf of peerLeaves) {
            if (!ours.has(leaf)) missing.set(leaf, [...(missing.get(leaf) ?? []), run.standIn]);
          }
        }
        missingByQuery.set(example.id, missing);
      }

      const complete = [...missingByQuery.values()].filter((m) => m.size === 0).length;
      const report = [`cookbook leaves: ${complete}/${cookbook.length} answers fill every peer leaf`];
      for (const [id, missing] of missingByQuery) {
        for (const [leaf, runs] of missing) {
          const known = KNOWN_GAPS[id]?.[leaf];
          report.push(`  ${id}: ${leaf} (${runs.join("; ")})${known ? ` — known: ${known}` : " — NOT A KNOWN GAP"}`);
        }
      }
      console.log(report.join("\n"));

      const unknown = [...missingByQuery].flatMap(([id, m]) =>
        [...m.keys()].filter((leaf) => !KNOWN_GAPS[id]?.[leaf]).map((leaf) => `${id}: ${leaf}`),
      );
      expect(unknown, "leaves the peer fills and ours leaves empty, not listed in KNOWN_GAPS").toEqual([]);
      const filledGaps = Object.entries(KNOWN_GAPS).flatMap(([id, leaves]) =>
        Object.keys(leaves)
          .filter((leaf) => !missingByQuery.get(id)?.has(leaf))
          .map((leaf) => `${id}: ${leaf}`),
      );
      expect(filledGaps, "known gaps that are filled now: remove them from KNOWN_GAPS").toEqual([]);
    }, 600_000);

    it("offchain-name: a name only a wildcard resolver answers is an UnindexedDomain, in the peer's shape and id", async () => {
      const omnigraph = async (query: string, variables: Record<string, unknown>) => {
        const res = await fetch(`${indexer.url}/api/omnigraph`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query, variables }),
        });
        const body = (await res.json()) as { data?: any; errors?: unknown };
        expect({ status: res.status, errors: body.errors }).toEqual({ status: 200, errors: undefined });
        return body.data;
      };
      const example = peerCookbook().find((e) => e.id === "offchain-name")!;
      const peer = peerCookbookResponses()["offchain-name"]!.data as any;
      // The peer's id: `unindexed-` + the id of the registry holding the wildcard's name + `-` + the name's node.
      const ID = /^unindexed-(\d+-0x[0-9a-f]{40}(?:-0x[0-9a-f]{64})?)-(0x[0-9a-f]{64})$/;
      const [, peerRegistry, peerNode] = ID.exec(peer.domain.id)!;
      expect(peerNode).toBe(namehash(peer.domain.canonical.name.interpreted));
      expect(peerRegistry).toBe(`1-0x00000000000c2e074ec69a0dfb2997ba6c7d2e1e-${namehash("eth")}`);
      const root = standIns.rootChainId;
      const REST = /* GraphQL */ `
        query Rest($name: InterpretedName!) {
          domain(by: { name: $name }) {
            id
            label { interpreted hash }
            owner { address }
            parent { __typename canonical { name { interpreted } } }
            registry { __typename id }
            subregistry { id }
            registration { id }
            registrations { totalCount }
            subdomains { totalCount }
            events { totalCount }
            resolver { assigned { id } }
            canonical { depth node path { __typename canonical { name { interpreted } } } }
          }
        }
      `;
      for (const w of standIns.wildcards) {
        const data = await omnigraph(example.query, { name: w.name });
        expect(shapeOf(data), w.name).toEqual(shapeOf(peer));
        const id = `unindexed-${w.registryId}-${namehash(w.name)}`;
        expect(id).toMatch(ID);
        console.log(`[offchain-name] ${w.name} (${w.version}): ${data.domain?.__typename} ${data.domain?.id}`);
        expect(data.domain, w.name).toEqual({
          __typename: "UnindexedDomain",
          id,
          canonical: { name: { interpreted: w.name } },
          resolver: { effective: { extended: true, contract: { chainId: root, address: w.resolver } } },
          resolve: {
            records: {
              addresses: [{ coinType: 60, address: w.addr }],
              texts: [
                { key: "avatar", value: null },
                { key: "com.twitter", value: null },
                { key: "description", value: w.description },
              ],
            },
          },
        });
        // The schema's other fields: the bearer's registry and its parent, nothing of its own, its path down to it.
        const typename = `${w.version}Domain`;
        const parent = w.bearer.slice(w.bearer.indexOf(".") + 1);
        const bearerLabels = w.bearer.split(".");
        const pathNames = bearerLabels.map((_, i) => bearerLabels.slice(bearerLabels.length - 1 - i).join("."));
        const rest = (await omnigraph(REST, { name: w.name })).domain;
        expect(rest, w.name).toEqual({
          id,
          label: { interpreted: "offchain", hash: labelhash("offchain") },
          owner: null,
          parent: { __typename: typename, canonical: { name: { interpreted: parent } } },
          registry: { __typename: w.version === "ENSv1" ? "ENSv1VirtualRegistry" : "ENSv2Registry", id: w.registryId },
          subregistry: null,
          registration: null,
          registrations: { totalCount: 0 },
          subdomains: { totalCount: 0 },
          events: { totalCount: 0 },
          resolver: { assigned: null },
          canonical: {
            depth: bearerLabels.length + 1,
            node: namehash(w.name),
            path: [
              ...pathNames.map((n) => ({ __typename: typename, canonical: { name: { interpreted: n } } })),
              { __typename: "UnindexedDomain", canonical: { name: { interpreted: w.name } } },
            ],
          },
        });
        // As the peer: an UnindexedDomain's id names a registry and a node, not a name; by id there is none.
        const byId = await omnigraph(`query($id: DomainId!) { domain(by: { id: $id }) { id } }`, { id });
        expect(byId.domain, id).toBeNull();
        // Two levels below the wildcard: the same registry and resolver, its path through the one above.
        const deeper = (
          await omnigraph(
            `query($name: InterpretedName!) { domain(by: { name: $name }) { __typename id canonical { path { __typename id } } } }`,
            { name: `deeper.${w.name}` },
          )
        ).domain;
        expect(deeper.__typename).toBe("UnindexedDomain");
        expect(deeper.id).toBe(`unindexed-${w.registryId}-${namehash(`deeper.${w.name}`)}`);
        expect(deeper.canonical.path.slice(bearerLabels.length)).toEqual([
          { __typename: "UnindexedDomain", id },
          { __typename: "UnindexedDomain", id: deeper.id },
        ]);
      }
      // Without a wildcard there is nothing: the full ENSv1 profile's resolver is not extended, and a name with a label
      // known only by its hash cannot be asked of a resolver.
      const v1 = standIns.fullV1.name;
      const plain = await omnigraph(
        `query($name: InterpretedName!) { domain(by: { name: $name }) { resolver { effective { extended } } } }`,
        { name: v1 },
      );
      expect(plain.domain.resolver.effective.extended).toBe(false);
      for (const name of [`nowild.${v1}`, `[${labelhash("x").slice(2)}].${standIns.wildcards[0]!.name}`]) {
        const data = await omnigraph(`query($name: InterpretedName!) { domain(by: { name: $name }) { id } }`, { name });
        expect(data.domain, name).toBeNull();
      }
    }, 300_000);
  },
);
