import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevnetScenario, LOCAL_DEVNET_SHAPE_WITH_OPTIMISM, scenarioOf } from "../../devnet/src/index";
import type { FullProfileFacts } from "../../devnet/src/scenario/full-profile";
import { PLUGIN_NAMES } from "../../src/plugins/names";
import { syncClocksAndWaitRealtime } from "../support/chain-clock";
import { type DevnetWithLabels, startDevnetWithLabels } from "../support/devnet-fixture";
import { indexerOptionsFor, type RunningIndexer, startIndexer } from "../support/indexer-harness";
import { peerCookbook, peerCookbookResponses, skipWithoutPeerOmnigraph } from "../support/peer-omnigraph";

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
  "offchain-name": (s) => [
    // The devnet has no offchain (CCIP-Read) resolver: an indexed name on its resolver stands in.
    { standIn: `${s.fullV1.name} (indexed; no offchain resolver on the devnet)`, variables: { name: s.fullV1.name } },
  ],
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
      standIns = {
        scenario,
        rootChainId: datasources.ensroot!.chainId,
        baseChainId: datasources.basenames!.chainId,
        fullV1,
        fullV2,
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
  },
);
