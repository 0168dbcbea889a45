import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  type Abi,
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  keccak256,
  type Log,
  labelhash,
  namehash,
  parseEther,
  toEventSelector,
  toHex,
  zeroAddress,
  zeroHash,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevnetScenario, loadDevnetContracts, scenarioOf } from "../../devnet/src/index";
import type { NameFacts } from "../../devnet/src/scenario/model";
import { syncClocksAndWaitRealtime } from "../../harness/chain-clock";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { type RunningIndexer, startIndexer } from "../../harness/indexer-harness";
import { peerCookbook, skipWithoutPeerOmnigraph } from "../../harness/peer-omnigraph";
import { COMPILER_UNAVAILABLE } from "../../src/api/omnigraph/compiled";
import { ZERO_ADDRESS } from "../../src/lib/names";
import type { DevnetManifest } from "../../src/namespaces/devnet-manifest";
import { checkRegistrationOrder, indexedOrderKeys, type ShownDomain } from "../support/registration-order";

/*
 * /api/omnigraph on a devnet indexed with every ENSv1 source (PLUGINS=subgraph,basenames,lineanames,threedns,
 * protocol-acceleration,registrars,tokenscope, PostgreSQL), over HTTP: the peer's cookbook queries run unchanged with
 * devnet variables and answer without GraphQL errors; the Omnigraph's answers for names of every chain equal
 * /subgraph's, /api/resolve's, /api/registrar-actions' and /api/name-tokens' for the same names, and the scenario's
 * own record of what it did on chain; paging through a connection with cursors yields the whole list once.
 */

const ROOT = 31337;
const BASE = 31338;
const LINEA = 31339;

let env: DevnetWithLabels;
let manifest: DevnetManifest;
let scenario: DevnetScenario;
let indexer: RunningIndexer;
const statuses: number[] = [];

async function post(path: string, query: string, variables: Record<string, unknown> = {}) {
  const res = await fetch(`${indexer.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  statuses.push(res.status);
  return { status: res.status, body: (await res.json()) as { data?: any; errors?: { message: string }[] } };
}

async function omnigraph<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const { status, body } = await post("/api/omnigraph", query, variables);
  if (status !== 200 || body.errors) throw new Error(`omnigraph ${status}: ${JSON.stringify(body.errors)}`);
  return body.data as T;
}

async function subgraph<T = any>(query: string): Promise<T> {
  const { status, body } = await post("/subgraph", query);
  if (status !== 200 || body.errors) throw new Error(`subgraph ${status}: ${JSON.stringify(body.errors)}`);
  return body.data as T;
}

const rpcUrls = () => [ROOT, BASE, LINEA].map((id) => manifest.chains[String(id)]!.rpcUrl);
const registryOf = (datasource: "ensroot" | "basenames" | "lineanames") => ({
  chainId: manifest.datasources[datasource]!.chainId,
  address: (manifest.datasources[datasource]!.contracts.Registry!.address as string).toLowerCase(),
});

beforeAll(async () => {
  env = await startDevnetWithLabels({ seed: 17, names: 24, mineInterval: 1 });
  manifest = env.devnet.manifest;
  scenario = scenarioOf(manifest);
  indexer = await startIndexer({
    manifestPath: env.devnet.manifestPath,
    labelsServiceUrl: env.labelsUrl,
    plugins: ["subgraph", "basenames", "lineanames", "threedns", "protocol-acceleration", "registrars", "tokenscope"],
    database: "postgres",
  });
  await indexer.process.ready();
  await syncClocksAndWaitRealtime(rpcUrls(), indexer.url);
}, 900_000);

afterAll(async () => {
  await indexer?.stop();
  await env?.stop();
});

/** Indexed, normalized names of the scenario (the ones a client would type), by how they came to be. */
function names(filter: (f: NameFacts) => boolean): NameFacts[] {
  return scenario.names.filter(
    (f) =>
      filter(f) &&
      !f.labels.some((l) => scenario.unhealableLabels.includes(l)) &&
      f.labels.every((l) => /^[a-z0-9-]+$/.test(l)),
  );
}

describe.skipIf(skipWithoutPeerOmnigraph("the cookbook on the devnet"))("the peer's cookbook on the devnet", () => {
  const cookbook = peerCookbook();

  it("runs every cookbook query unchanged with devnet variables, without GraphQL errors", async () => {
    const withTexts =
      names((f) => f.chainId === ROOT && f.name.endsWith(".eth") && Object.keys(f.texts ?? {}).length > 0)[0] ??
      names((f) => f.chainId === ROOT)[0]!;
    const primary = scenario.crossChainPrimary.address.toLowerCase();
    const owner = (
      names((f) => f.chainId === ROOT && f.registrant !== undefined)[0]!.registrant as string
    ).toLowerCase();
    const devnetValue = (key: string, value: unknown): unknown => {
      if (key === "name" && typeof value === "string") return withTexts.name;
      if (key === "name" && typeof value === "object") return { starts_with: withTexts.labels[0]!.slice(0, 3) };
      if (key === "address") return value === "0xd8da6bf26964af9d7eed9e03e53415d37aa96045" ? primary : owner;
      if (key === "registry" || key === "contract") return registryOf("ensroot");
      return value;
    };
    const answered: string[] = [];
    for (const example of cookbook) {
      const variables = Object.fromEntries(Object.entries(example.variables).map(([k, v]) => [k, devnetValue(k, v)]));
      const { status, body } = await post("/api/omnigraph", example.query, variables);
      expect({ id: example.id, status, errors: body.errors }).toEqual({
        id: example.id,
        status: 200,
        errors: undefined,
      });
      expect(body.data, example.id).toBeTruthy();
      answered.push(example.id);
    }
    expect(answered.length).toBe(cookbook.length);
  }, 300_000);

  it("answers the cookbook's main questions with the index's data", async () => {
    const name = names((f) => f.chainId === ROOT && f.name.endsWith(".eth") && f.labels.length === 2)[0]!;
    const byName = cookbook.find((e) => e.id === "domain-by-name")!;
    const d = (await omnigraph(byName.query, { name: name.name })).domain;
    expect(d.canonical.name.beautified).toBe(name.name);
    const eth = await omnigraph(cookbook.find((e) => e.id === "eth-by-version")!.query);
    expect(eth.domains.edges.map((e: any) => e.node.__typename)).toEqual(["ENSv1Domain"]);
    const subs = await omnigraph(cookbook.find((e) => e.id === "domain-subdomains")!.query, { name: "eth" });
    expect(subs.domain.subdomains.edges.length).toBeGreaterThan(0);
    const events = await omnigraph(cookbook.find((e) => e.id === "domain-events")!.query, { name: name.name });
    expect(events.domain.events.totalCount).toBeGreaterThan(0);
    for (const e of events.domain.events.edges) {
      expect(e.node.topics.length).toBeGreaterThan(0);
      expect(Number(e.node.timestamp)).toBeGreaterThan(0);
    }
  }, 120_000);
});

const DOMAIN_FIELDS = `
  id
  canonical { name { interpreted } }
  owner { address }
  ... on ENSv1Domain { rootRegistryOwner { address } }
  registration { __typename expiry registrant { address } }
  subdomains(first: 1000) { totalCount edges { node { id } } }
  resolver { assigned { contract { chainId address } } }
  registry { __typename contract { chainId address } }
`;

describe("the same answers as /subgraph and /api/resolve", () => {
  const cases: [string, (f: NameFacts) => boolean][] = [
    ["the ENS root chain", (f) => f.chainId === ROOT],
    ["Basenames", (f) => f.chainId === BASE && f.name.endsWith(".base.eth")],
    ["Lineanames", (f) => f.chainId === LINEA && f.name.endsWith(".linea.eth")],
    ["3DNS", (f) => f.via === "3dns"],
  ];
  for (const [chain, filter] of cases) {
    it(`every indexed name of ${chain}`, async () => {
      const facts = names(filter);
      expect(facts.length, chain).toBeGreaterThan(0);
      for (const f of facts) {
        const node = f.node.toLowerCase();
        const og = (
          await omnigraph(`query($name: InterpretedName!) { domain(by: { name: $name }) { ${DOMAIN_FIELDS} } }`, {
            name: f.name,
          })
        ).domain;
        const sg = (
          await subgraph(
            `{ domain(id: "${node}") { id name expiryDate owner { id } registrant { id } wrappedOwner { id } subdomainCount resolver { address id } registration { expiryDate registrant { id } } wrappedDomain { expiryDate owner { id } } subdomains(first: 1000) { id owner { id } resolver { id } subdomainCount } } }`,
          )
        ).domain;
        if (!sg) {
          expect(og, f.name).toBeNull();
          continue;
        }
        expect(og, `${f.name} (${f.via})`).not.toBeNull();
        expect(og.id).toBe(sg.id);
        expect(og.canonical.name.interpreted).toBe(sg.name);
        const effective = sg.wrappedOwner?.id ?? sg.registrant?.id ?? sg.owner.id;
        expect(og.owner?.address ?? "0x0000000000000000000000000000000000000000", f.name).toBe(effective);
        expect(og.rootRegistryOwner?.address ?? "0x0000000000000000000000000000000000000000").toBe(sg.owner.id);
        // The list holds every child; subdomainCount only those that are not empty (docs/api.md).
        expect(og.subdomains.totalCount).toBe(sg.subdomains.length);
        const nonEmpty = sg.subdomains.filter(
          (s: any) => s.owner.id !== ZERO_ADDRESS || s.resolver !== null || s.subdomainCount > 0,
        );
        expect(sg.subdomainCount, f.name).toBe(nonEmpty.length);
        expect(og.subdomains.edges.map((e: any) => e.node.id).sort()).toEqual(
          sg.subdomains.map((s: any) => s.id).sort(),
        );
        expect(og.resolver.assigned?.contract.address ?? null).toBe(
          sg.resolver?.address && sg.resolver.address !== "0x0000000000000000000000000000000000000000"
            ? sg.resolver.address
            : null,
        );
        // 3DNS keeps its expiry on the domain (no registration entity).
        const expiry =
          sg.registration?.expiryDate ?? sg.wrappedDomain?.expiryDate ?? (f.via === "3dns" ? sg.expiryDate : null);
        expect(og.registration?.expiry ?? null, f.name).toBe(expiry);
        if (og.registration?.__typename === "BaseRegistrarRegistration")
          expect(og.registration.registrant?.address).toBe(sg.registration.registrant.id);
        // A 3DNS name is a ThreeDNSRegistration while its token has an expiry (a burned one has none, and no registration).
        if (f.via === "3dns")
          expect(og.registration?.__typename ?? null, f.name).toBe(expiry === null ? null : "ThreeDNSRegistration");
      }
    }, 120_000);
  }

  it("resolves records and primary names as /api/resolve does, saying whether the index answered", async () => {
    const facts = names((f) => f.resolver !== undefined).slice(0, 12);
    expect(facts.length).toBeGreaterThan(3);
    for (const f of facts) {
      const keys = ["url", "avatar", "description", "com.twitter"];
      const rest = (await (
        await fetch(
          `${indexer.url}/api/resolve/records/${encodeURIComponent(f.name)}?addresses=60&texts=${keys.join(",")}`,
        )
      ).json()) as any;
      const og = (
        await omnigraph(
          `query($name: InterpretedName!) { domain(by: { name: $name }) { resolve { acceleration { requested attempted } records { addresses(coinTypes: [60]) { coinType address } texts(keys: ${JSON.stringify(keys)}) { key value } } } } }`,
          { name: f.name },
        )
      ).domain;
      if (!og) continue;
      expect(og.resolve.records.addresses, f.name).toEqual([{ coinType: 60, address: rest.records.addresses["60"] }]);
      expect(og.resolve.records.texts, f.name).toEqual(keys.map((key) => ({ key, value: rest.records.texts[key] })));
      expect(og.resolve.acceleration).toEqual({ requested: true, attempted: rest.accelerated });
    }
    const address = scenario.crossChainPrimary.address.toLowerCase() as Address;
    const rest = (await (
      await fetch(`${indexer.url}/api/resolve/primary-names/${address}?chainIds=${ROOT},${BASE},${LINEA}`)
    ).json()) as any;
    const og = await omnigraph(
      `query($a: Address!) { account(by: { address: $a }) { resolve { primaryNames(where: { chainNames: [ETHEREUM, BASE, LINEA] }) { chainName coinType name { interpreted } } } } }`,
      { a: address },
    );
    const got = og.account.resolve.primaryNames.map((p: any) => p.name?.interpreted ?? null);
    expect(got).toEqual([rest.names[String(ROOT)], rest.names[String(BASE)], rest.names[String(LINEA)]]);
    expect(got.filter((n: string | null) => n !== null).length).toBeGreaterThan(0);
  }, 120_000);

  it("lists an account's names as /subgraph's owner, registrant and wrapped owner say, and pages them with stable cursors", async () => {
    const all = (
      await subgraph(
        `{ domains(first: 1000, where: { name_not: null }) { id name owner { id } registrant { id } wrappedOwner { id } } }`,
      )
    ).domains as any[];
    const effective = (d: any) => d.wrappedOwner?.id ?? d.registrant?.id ?? d.owner.id;
    const counts = new Map<string, number>();
    for (const d of all) counts.set(effective(d), (counts.get(effective(d)) ?? 0) + 1);
    const [account] = [...counts.entries()]
      .filter(([a]) => a !== "0x0000000000000000000000000000000000000000")
      .sort((a, b) => b[1] - a[1])[0]!;
    const expected = all
      .filter(
        (d) =>
          effective(d) === account && d.id !== "0x0000000000000000000000000000000000000000000000000000000000000000",
      )
      .map((d) => d.id)
      .sort();
    const query = `query($a: Address!, $after: String) { account(by: { address: $a }) { domains(first: 2, after: $after) { totalCount edges { cursor node { id } } pageInfo { hasNextPage endCursor } } } }`;
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 100; page++) {
      const { domains }: { domains: any } = (await omnigraph(query, { a: account, after })).account;
      expect(domains.totalCount).toBe(expected.length);
      seen.push(...domains.edges.map((e: any) => e.node.id));
      if (!domains.pageInfo.hasNextPage) break;
      after = domains.pageInfo.endCursor;
    }
    expect([...seen].sort()).toEqual(expected);
    expect(new Set(seen).size).toBe(seen.length);
  }, 120_000);

  it("answers nothing with a 5xx", () => {
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
  });

  it("gave these answers compiled under Ponder: the queries above asked for each name ran on graphql-jit", () => {
    // A document is compiled from its second execution on (src/api/omnigraph/compiled.ts); had graphql-jit been
    // loaded with another copy of graphql than Ponder's Vite server gives the app, the log would say so.
    expect(readFileSync(indexer.logFile, "utf8")).not.toContain(COMPILER_UNAVAILABLE);
  });
});

describe("events as the chain has them", () => {
  it("a controller-registered .eth name's events include its controller's NameRegistered (and NameRenewed), in log order", async () => {
    const controllers = [
      "LegacyEthRegistrarController",
      "WrappedEthRegistrarController",
      "UnwrappedEthRegistrarController",
    ]
      .map((c) => (manifest.datasources.ensroot!.contracts[c]?.address as string | undefined)?.toLowerCase())
      .filter((a): a is string => a !== undefined);
    const facts = names((f) => f.chainId === ROOT && f.via.endsWith("-controller") && f.labels.length === 2);
    expect(facts.length).toBeGreaterThan(0);
    let renewals = 0;
    for (const f of facts) {
      const events = (
        await omnigraph<{
          domain: {
            events: { edges: { node: { address: string; topics: string[]; blockNumber: string; logIndex: number } }[] };
          };
        }>(
          `query($name: InterpretedName!) { domain(by: { name: $name }) { events(first: 1000) { edges { node { address topics blockNumber logIndex } } } } }`,
          { name: f.name },
        )
      ).domain.events.edges.map((e) => e.node);
      // Read back from the chain: the controller's log, indexed by the name's labelhash.
      const fromController = events.filter(
        (e) => controllers.includes(e.address) && e.topics[1] === labelhash(f.labels[0]!),
      );
      expect(fromController.length, f.name).toBeGreaterThan(0);
      renewals += fromController.length - 1;
      const positions = events.map((e) => [Number(e.blockNumber), e.logIndex] as const);
      for (let i = 1; i < positions.length; i++) {
        const [b, l] = positions[i]!;
        const [pb, pl] = positions[i - 1]!;
        expect(b > pb || (b === pb && l > pl), `${f.name}: ${pb}-${pl} then ${b}-${l}`).toBe(true);
      }
    }
    console.log(
      `[omnigraph events] ${facts.length} controller-registered names, ${renewals} controller renewals listed`,
    );
  }, 120_000);
});

describe("registration order", () => {
  it("pages every parent's children by registration start and expiry as their registrations show; the index's keys are theirs", async () => {
    const { keys, lists } = await indexedOrderKeys(indexer.env.DATABASE_URL!, indexer.schema, "domain");
    const PAGE = 4;
    const query = `query($id: DomainId!, $by: DomainsOrderBy!, $dir: OrderDirection!, $after: String) {
      domain(by: { id: $id }) { subdomains(first: ${PAGE}, after: $after, order: { by: $by, dir: $dir }) {
        pageInfo { endCursor hasNextPage } edges { node { id registration { __typename start expiry } } }
      } }
    }`;
    const shown: ShownDomain[] = [];
    for (const [parent, children] of lists) {
      const seen = await checkRegistrationOrder(
        {
          label: `children of ${parent}`,
          page: async (by, dir, after) => {
            const c = (await omnigraph(query, { id: parent, by, dir, after })).domain.subdomains;
            return { nodes: c.edges.map((e: any) => e.node), ...c.pageInfo };
          },
        },
        keys,
        PAGE,
      );
      expect(seen.length, `children of ${parent}`).toBe(children);
      shown.push(...seen);
    }
    const kinds = new Map<string, number>();
    for (const d of shown)
      kinds.set(d.registration?.__typename ?? "none", (kinds.get(d.registration?.__typename ?? "none") ?? 0) + 1);
    console.log(
      `[omnigraph] registration order: ${lists.size} parents, ${shown.length} children paged 4 ways (${[...kinds].map(([k, n]) => `${n} ${k}`).join(", ")})`,
    );
    for (const kind of ["BaseRegistrarRegistration", "NameWrapperRegistration", "ThreeDNSRegistration", "none"])
      expect(kinds.get(kind) ?? 0, kind).toBeGreaterThan(0);
  });
});

const ZERO = "0x0000000000000000000000000000000000000000";
const lower = (a: string | undefined) => a?.toLowerCase();

const REGISTRATION_CREATED = toEventSelector(
  "event RegistrationCreated(bytes32 indexed node, bytes32 indexed tld, bytes fqdn, address registrant, uint32 controlBitmap, uint64 expiry)",
);
/** Every `RegistrationCreated` of the devnet's 3DNS token (on the "base" chain), oldest first. */
async function threeDnsRegistrationsCreated(): Promise<Log[]> {
  const ds = manifest.datasources.threednsBase!;
  const client = createPublicClient({ transport: http(manifest.chains[String(ds.chainId)]!.rpcUrl) });
  const token = ds.contracts.ThreeDNSToken!.address as Address;
  const logs = await client.getLogs({ address: token, fromBlock: 0n, toBlock: "latest" });
  return logs.filter((l) => l.topics[0] === REGISTRATION_CREATED);
}

/** Every registrar action of the index, newest first: the current expiry of each name's lifecycle by node. */
async function registrarExpiries(): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (let page = 1; page < 100; page++) {
    const body = (await (await fetch(`${indexer.url}/api/registrar-actions?limit=100&page=${page}`)).json()) as any;
    for (const a of body.registrarActions) {
      const lifecycle = a.action.registrationLifecycle;
      if (!out.has(lifecycle.node)) out.set(lifecycle.node, lifecycle.expiresAt);
    }
    if (!body.pageContext.hasNext) break;
  }
  return out;
}

const CROSS_FIELDS = `
  id
  label { interpreted hash }
  canonical { name { interpreted } }
  owner { address }
  parent { canonical { name { interpreted } } }
  ... on ENSv1Domain { node rootRegistryOwner { address } }
  registration { __typename expiry }
  registrations(first: 10) { totalCount edges { node { __typename expiry registrant { address } ... on BaseRegistrarRegistration { wrapped { fuses } } } } }
  resolver { assigned { contract { address } } }
`;

describe("the same names through every API: owner, registrant and expiry, resolver, records, name and labels", () => {
  const live = (f: NameFacts) => !f.deleted;
  const cases: [string, (f: NameFacts) => boolean][] = [
    ["root .eth names", (f) => live(f) && f.chainId === ROOT && f.labels.length === 2 && f.labels[1] === "eth"],
    ["Basenames", (f) => live(f) && f.chainId === BASE && f.name.endsWith(".base.eth")],
    ["Lineanames", (f) => live(f) && f.chainId === LINEA && f.name.endsWith(".linea.eth")],
    ["3DNS names", (f) => live(f) && f.via.startsWith("3dns")],
    ["wrapped names", (f) => live(f) && f.wrappedOwner !== undefined && !f.unwrapped && !f.via.startsWith("3dns")],
    ["subnames", (f) => live(f) && f.labels.length >= 3 && !f.via.startsWith("3dns")],
  ];
  let expiries: Map<string, number>;
  let created: Log[] | undefined;
  const compared = { registrar: 0, wrapped: 0, tokens: 0, records: 0 };

  beforeAll(async () => {
    expiries = await registrarExpiries();
    expect(expiries.size).toBeGreaterThan(0);
  }, 60_000);

  for (const [kind, filter] of cases) {
    it(kind, async () => {
      const facts = names(filter);
      expect(facts.length, kind).toBeGreaterThan(0);
      let answered = 0;
      for (const f of facts) {
        const what = `${f.name} (${f.via})`;
        const og = (
          await omnigraph(`query($name: InterpretedName!) { domain(by: { name: $name }) { ${CROSS_FIELDS} } }`, {
            name: f.name,
          })
        ).domain;
        const sg = (
          await subgraph(
            `{ domain(id: "${f.node.toLowerCase()}") { name labelName labelhash parent { name } owner { id } resolver { address } } }`,
          )
        ).domain;
        expect(og, what).not.toBeNull();
        answered++;

        // Name and labels: the scenario's, /subgraph's and ours.
        expect(og.id, what).toBe(f.node.toLowerCase());
        expect(og.node, what).toBe(f.node.toLowerCase());
        expect(og.canonical.name.interpreted, what).toBe(f.name);
        expect(og.label, what).toEqual({ interpreted: f.labels[0], hash: labelhash(f.labels[0]!) });
        expect(og.parent?.canonical.name.interpreted ?? null, what).toBe(f.labels.slice(1).join(".") || null);
        if (sg) {
          expect([sg.name, sg.labelName, sg.labelhash, sg.parent?.name ?? null], what).toEqual([
            f.name,
            f.labels[0],
            labelhash(f.labels[0]!),
            og.parent?.canonical.name.interpreted ?? null,
          ]);
          expect(og.rootRegistryOwner?.address ?? ZERO, what).toBe(sg.owner.id);
        }

        // The registry's owner and the resolver, as the scenario left them on chain.
        if (f.registryOwner !== undefined && !f.via.startsWith("3dns"))
          expect(og.rootRegistryOwner?.address ?? ZERO, what).toBe(lower(f.registryOwner));
        if (f.resolver !== undefined) expect(og.resolver.assigned?.contract.address, what).toBe(lower(f.resolver));

        // The effective owner: the ERC-1155 holder when wrapped, else the ERC-721 holder, else the registry's owner.
        const effective = (f.unwrapped ? undefined : f.wrappedOwner) ?? f.registrant ?? f.registryOwner;
        if (effective !== undefined && !f.via.startsWith("3dns"))
          expect(og.owner?.address ?? ZERO, what).toBe(lower(effective));

        const registrations = og.registrations.edges.map((e: any) => e.node);
        const tokens = (await (
          await fetch(`${indexer.url}/api/name-tokens?name=${encodeURIComponent(f.name)}`)
        ).json()) as any;
        const registrarExpiry = expiries.get(f.node.toLowerCase());
        if (registrarExpiry !== undefined) {
          // A registrar's name: its registration's registrant and expiry are the registrar actions' and the ERC-721's.
          const base = registrations.find((r: any) => r.__typename === "BaseRegistrarRegistration");
          expect(base, what).toBeDefined();
          expect(Number(base.expiry), what).toBe(registrarExpiry);
          if (f.registrant !== undefined) expect(base.registrant?.address, what).toBe(lower(f.registrant));
          expect(tokens.responseCode, what).toBe("ok");
          expect(tokens.registeredNameTokens.expiresAt, what).toBe(registrarExpiry);
          const erc721 = tokens.registeredNameTokens.tokens.find((t: any) => t.token.assetNamespace === "erc721");
          expect(erc721?.ownership.owner.address, what).toBe(base.registrant?.address ?? ZERO);
          compared.registrar++;
        }
        if (f.wrappedOwner !== undefined && !f.unwrapped && !f.via.startsWith("3dns")) {
          // A wrapped registrar name is its base registrar's registration with `wrapped` (as the peer's schema has
          // it); a wrapped subname is the NameWrapper's.
          const wrapped = registrations.find(
            (r: any) =>
              r.__typename === "NameWrapperRegistration" || (r.__typename === "BaseRegistrarRegistration" && r.wrapped),
          );
          expect(wrapped, what).toBeDefined();
          const erc1155 = tokens.registeredNameTokens.tokens.find((t: any) => t.token.assetNamespace === "erc1155");
          expect(erc1155?.ownership.owner.address, what).toBe(lower(f.wrappedOwner));
          expect(og.owner?.address, what).toBe(lower(f.wrappedOwner));
          compared.wrapped++;
        }
        if (f.via === "3dns") {
          // 3DNS: the token's holder and expiry, through the name tokens.
          expect(og.registration?.__typename, what).toBe("ThreeDNSRegistration");
          expect(tokens.responseCode, what).toBe("ok");
          const token = tokens.registeredNameTokens.tokens[0];
          expect(og.owner?.address ?? ZERO, what).toBe(token.ownership.owner.address);
          expect(Number(og.registration.expiry), what).toBe(tokens.registeredNameTokens.expiresAt);
          // Its event: the token's last RegistrationCreated of the name, as the chain has it.
          created ??= await threeDnsRegistrationsCreated();
          const log = created.filter((l) => l.topics[1] === f.node.toLowerCase()).at(-1)!;
          expect(log, what).toBeDefined();
          const { event } = (
            await omnigraph(
              `query($name: InterpretedName!) { domain(by: { name: $name }) { registration { event { id chainId blockNumber logIndex transactionHash address topics } } } }`,
              { name: f.name },
            )
          ).domain.registration;
          expect(event, what).toEqual({
            id: `${log.blockNumber}-${log.logIndex}-${f.chainId}`,
            chainId: f.chainId,
            blockNumber: String(log.blockNumber),
            logIndex: log.logIndex,
            transactionHash: log.transactionHash,
            address: log.address.toLowerCase(),
            topics: log.topics,
          });
          compared.tokens++;
        }

        // Records the scenario set, through our resolution and the REST route's.
        const keys = Object.keys(f.texts ?? {});
        if (keys.length > 0 || f.addr !== undefined) {
          const records = (
            await omnigraph(
              `query($name: InterpretedName!, $keys: [String!]!) { domain(by: { name: $name }) { resolve { records { texts(keys: $keys) { key value } addresses(coinTypes: [60]) { address } } } } }`,
              { name: f.name, keys },
            )
          ).domain.resolve.records;
          const rest = (await (
            await fetch(
              `${indexer.url}/api/resolve/records/${encodeURIComponent(f.name)}?addresses=60${keys.length ? `&texts=${keys.map(encodeURIComponent).join(",")}` : ""}`,
            )
          ).json()) as any;
          expect(records.texts, what).toEqual(keys.map((key) => ({ key, value: f.texts![key] })));
          expect(records.texts, what).toEqual(keys.map((key) => ({ key, value: rest.records.texts[key] })));
          if (f.addr !== undefined)
            expect([lower(records.addresses[0].address), lower(rest.records.addresses["60"])], what).toEqual([
              lower(f.addr),
              lower(f.addr),
            ]);
          compared.records++;
        }
      }
      expect(answered, kind).toBe(facts.length);
    }, 180_000);
  }

  it("compared registrations, wrapped names, 3DNS tokens and records (none skipped)", () => {
    expect(compared.registrar).toBeGreaterThan(0);
    expect(compared.wrapped).toBeGreaterThan(0);
    expect(compared.tokens).toBeGreaterThan(0);
    expect(compared.records).toBeGreaterThan(0);
  });
});

describe("docs/api.md's /api/omnigraph examples", () => {
  it("run on the devnet without errors and find data", async () => {
    const docs = readFileSync(join(import.meta.dirname, "..", "..", "docs", "api.md"), "utf8");
    const section = docs.slice(docs.indexOf("## /api/omnigraph"), docs.indexOf("## Limits and errors of every route"));
    const examples = [...section.matchAll(/```graphql\n([\s\S]*?)```/g)].map((m) => m[1]!);
    // The fourth (an ENSv2 name) needs the ensv2 plugin: test/omnigraph/ensv2-devnet.system.test.ts runs it.
    expect(examples.length).toBe(4);
    const first = (await omnigraph(examples[0]!)).domain.subdomains;
    expect(first.totalCount).toBeGreaterThan(0);
    const name = first.edges[0].node.canonical.name.interpreted as string;
    const records = await omnigraph(examples[1]!, { name });
    expect(records.domain.resolve.acceleration.requested).toBe(true);
    const owner = names(
      (f) => f.chainId === ROOT && f.registrant !== undefined && f.wrappedOwner === undefined && !f.deleted,
    )[0]!.registrant!.toLowerCase();
    const account = await omnigraph(examples[2]!, { address: owner, after: null });
    expect(account.account.domains.totalCount).toBeGreaterThan(0);
    expect(account.account.resolve.primaryNames).toHaveLength(3);
  }, 60_000);
});

describe("labels a controller revealed, as the chain has them", () => {
  it("a subname's withheld label is written out in the Omnigraph once `<label>.eth` is registered through a controller; /subgraph keeps `[labelhash]`", async () => {
    // A new subname of an unwrapped .eth name, under a label the label set does not have: `[labelhash].<parent>`.
    const rpcUrl = manifest.chains[String(ROOT)]!.rpcUrl;
    const client = createPublicClient({ transport: http(rpcUrl) });
    const wallet = createWalletClient({ transport: http(rpcUrl) });
    const accounts = await wallet.getAddresses();
    const parent = names(
      (f) =>
        f.chainId === ROOT &&
        f.labels.length === 2 &&
        !f.deleted &&
        f.wrappedOwner === undefined &&
        accounts.some((a) => a.toLowerCase() === f.registryOwner?.toLowerCase()),
    )[0]!;
    expect(parent, "an unwrapped .eth name owned by an unlocked account").toBeDefined();
    const label = `withheld${Date.now().toString(36)}`;
    const parentName = parent.name;
    const encodedName = `[${labelhash(label).slice(2)}].${parentName}`;
    const node = namehash(`${label}.${parentName}`);
    const { own, real } = loadDevnetContracts();
    const call = async (
      address: Address,
      abi: Abi,
      functionName: string,
      args: readonly unknown[],
      from: Address,
      value?: bigint,
    ) => {
      const hash = await wallet.writeContract({ account: from, chain: null, address, abi, functionName, args, value });
      expect((await client.waitForTransactionReceipt({ hash })).status, functionName).toBe("success");
    };
    const registry = manifest.datasources.ensroot!.contracts.Registry!.address as Address;
    await call(
      registry,
      real.ENSRegistryWithFallback.abi,
      "setSubnodeOwner",
      [parent.node, labelhash(label), parent.registryOwner],
      parent.registryOwner!,
    );
    const nameOf = async () =>
      (
        await omnigraph(
          `query($id: DomainId!) { domain(by: { id: $id }) { label { interpreted } canonical { name { interpreted } } } }`,
          {
            id: node,
          },
        )
      ).domain;
    const waitFor = async (name: string) => {
      const deadline = Date.now() + 90_000;
      while (
        (await omnigraph(`query($n: InterpretedName!) { domain(by: { name: $n }) { id } }`, { n: name })).domain ===
        null
      ) {
        expect(Date.now(), `${name} indexed`).toBeLessThan(deadline);
        await new Promise((r) => setTimeout(r, 1000));
      }
    };
    await waitFor(encodedName);
    expect((await nameOf()).canonical.name.interpreted).toBe(encodedName);

    // `<label>.eth` through the 2025 controller: commit, let the commitment age, register.
    const from = accounts[0]!;
    const controller = manifest.datasources.ensroot!.contracts.UnwrappedEthRegistrarController!.address as Address;
    const abi = own.UnwrappedEthRegistrarController.abi;
    const args = [label, from, 31_536_000n, keccak256(toHex(label)), zeroAddress, zeroHash] as const;
    const commitment = await client.readContract({ address: controller, abi, functionName: "makeCommitment", args });
    const send = (functionName: string, fnArgs: readonly unknown[], value?: bigint) =>
      call(controller, abi, functionName, fnArgs, from, value);
    await send("commit", [commitment]);
    await createTestClient({ mode: "anvil", transport: http(rpcUrl) }).increaseTime({ seconds: 61 });
    await send("register", args, parseEther("5"));
    // The commitment's 61 s put the root chain's clock ahead of the other chains', and under omnichain ordering the
    // registration is indexed only once every chain has a block as late: one block on each at that time, rather than
    // a minute of waiting for the others' interval mining to get there.
    await syncClocksAndWaitRealtime(rpcUrls(), indexer.url);

    // Once the index has `<label>.eth`, the subname shows the label; /subgraph still shows the labelhash.
    await waitFor(`${label}.eth`);
    const shown = await nameOf();
    expect(shown.label.interpreted).toBe(label);
    expect(shown.canonical.name.interpreted).toBe(`${label}.${parentName}`);
    expect((await subgraph(`{ domain(id: "${node}") { name labelName } }`)).domain).toEqual({
      name: encodedName,
      labelName: null,
    });
  }, 240_000);
});
