import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Address } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevnetScenario, scenarioOf } from "../../devnet/src/index";
import type { NameFacts } from "../../devnet/src/scenario/model";
import type { DevnetManifest } from "../../src/namespaces/devnet-manifest";
import { syncClocksAndWaitRealtime } from "../support/chain-clock";
import { type DevnetWithLabels, startDevnetWithLabels } from "../support/devnet-fixture";
import { type RunningIndexer, startIndexer } from "../support/indexer-harness";

/*
 * /api/omnigraph on a devnet indexed with every ENSv1 source (PLUGINS=subgraph,basenames,lineanames,threedns,
 * protocol-acceleration, PostgreSQL), over HTTP: the peer's cookbook queries run unchanged with devnet variables and
 * answer without GraphQL errors; the Omnigraph's answers for names of every chain equal /subgraph's and
 * /api/resolve's for the same names; paging through a connection with cursors yields the whole list once.
 */

const ROOT = 31337;
const BASE = 31338;
const LINEA = 31339;
const cookbook = JSON.parse(readFileSync(join(import.meta.dirname, "fixtures", "peer-cookbook.json"), "utf8")) as {
  id: string;
  query: string;
  variables: Record<string, unknown>;
}[];

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
    plugins: ["subgraph", "basenames", "lineanames", "threedns", "protocol-acceleration"],
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

describe("the peer's cookbook on the devnet", () => {
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
            `{ domain(id: "${node}") { id name owner { id } registrant { id } wrappedOwner { id } subdomainCount resolver { address id } registration { expiryDate registrant { id } } wrappedDomain { expiryDate owner { id } } subdomains(first: 1000) { id } } }`,
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
        expect(og.subdomains.totalCount).toBe(sg.subdomainCount);
        expect(og.subdomains.edges.map((e: any) => e.node.id).sort()).toEqual(
          sg.subdomains.map((s: any) => s.id).sort(),
        );
        expect(og.resolver.assigned?.contract.address ?? null).toBe(
          sg.resolver?.address && sg.resolver.address !== "0x0000000000000000000000000000000000000000"
            ? sg.resolver.address
            : null,
        );
        const expiry = sg.registration?.expiryDate ?? sg.wrappedDomain?.expiryDate ?? null;
        expect(og.registration?.expiry ?? null, f.name).toBe(expiry);
        if (og.registration?.__typename === "BaseRegistrarRegistration")
          expect(og.registration.registrant?.address).toBe(sg.registration.registrant.id);
        if (f.via === "3dns")
          expect(og.registration?.__typename ?? "ThreeDNSRegistration").toBe("ThreeDNSRegistration");
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
});
