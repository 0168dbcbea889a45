import { getIntrospectionQuery } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { peerCookbook, skipWithoutPeerOmnigraph } from "../../harness/peer-omnigraph";
import { buildFixture } from "../../harness/subgraph-fixture/fixture";
import type { TestDatabase } from "../../harness/subgraph-fixture/pg";
import { executeOmnigraphRequest, type OmnigraphOptions } from "../../src/api/omnigraph";
import { CompileBudget } from "../../src/api/omnigraph/compile-guard";
import { CHAIN, ETH_REGISTRY, ensv2Rows, OWNER } from "./ensv2-rows";
import { seededOmnigraph } from "./seeded-omnigraph";

/*
 * Hot documents run compiled (src/api/omnigraph/compiled.ts). Every request here is answered twice, once on
 * graphql-js and once compiled, and the two answers must be the same bytes: the peer's cookbook, lists of both
 * versions with their cursors and orders, fragments and directives, introspection, and requests that fail (bad
 * variables, bad names, bad cursors, internal errors). Over the /subgraph tests' ENSv1 dataset and an ENSv2 tree.
 */

let t: TestDatabase;
let options: OmnigraphOptions;
let internalErrors: unknown[] = [];
const fixture = buildFixture({ secondLevel: 120, accounts: 6 });

beforeAll(async () => {
  ({ t, options, internalErrors } = await seededOmnigraph("og_jit_test", { ...fixture, ...ensv2Rows() }));
}, 120_000);

afterAll(async () => {
  await t?.drop();
});

interface Request {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

/** Compile time without end: the budget of the process is compile-guard's own test. */
const unlimited = new CompileBudget(Number.POSITIVE_INFINITY);

/** Answers whose error lists differed (see `both`), by request. */
const longerErrorLists: string[] = [];

/**
 * The request answered on graphql-js and compiled: the same status and body, byte for byte, with one exception. Where
 * a non-null field fails in several places under one nullable parent (a list's nodes), graphql-js stops listing
 * failures once the null has reached that parent, and the compiled executor lists every one. Then the data must be
 * the same and graphql-js's errors must appear, in order, among the compiled answer's.
 */
async function both(request: Request) {
  const errorsBefore = internalErrors.length;
  const js = await executeOmnigraphRequest(request, { ...options, compileAfterUses: Number.POSITIVE_INFINITY });
  const jsInternal = internalErrors.length - errorsBefore;
  const compiled = await executeOmnigraphRequest(request, {
    ...options,
    compileAfterUses: 1,
    compileBudget: unlimited,
  });
  const compiledInternal = internalErrors.length - errorsBefore - jsInternal;
  const label = `${request.operationName ?? ""} ${request.query.slice(0, 160)}`;
  expect(compiled.status, label).toBe(js.status);
  expect(js.compiled).not.toBe(true);
  if (JSON.stringify(compiled.body) === JSON.stringify(js.body)) {
    expect(compiledInternal, label).toBe(jsInternal);
    return { js, compiled };
  }
  expect(JSON.stringify(compiled.body.data), label).toBe(JSON.stringify(js.body.data));
  const listed = (compiled.body.errors ?? []).map((e) => JSON.stringify(e));
  let at = 0;
  for (const e of js.body.errors ?? []) {
    at = listed.indexOf(JSON.stringify(e), at) + 1;
    expect(at, `${label}: ${JSON.stringify(e)}`).toBeGreaterThan(0);
  }
  expect(listed.length).toBeGreaterThan(js.body.errors?.length ?? 0);
  longerErrorLists.push(label);
  return { js, compiled };
}

const domains = fixture.domain!;
const named = domains.filter((d) => typeof d.name === "string" && /^[a-z0-9]+\.eth$/.test(d.name as string));
const withChildren = named.find((d) => (d.subdomainCount as number) > 2)!;
const owner = withChildren.ownerId as string;

/** The cookbook's variables pointed at this dataset's subjects. */
function fixtureValue(key: string, value: unknown): unknown {
  if (key === "name" && typeof value === "string") return value === "eth" ? "eth" : (withChildren.name as string);
  if (key === "name" && typeof value === "object") return { starts_with: "name0" };
  if (key === "address") return value === "0x179a862703a4adfb29896552df9e307980d19285" ? OWNER : owner;
  if (key === "registry" || key === "contract") return { chainId: CHAIN, address: ETH_REGISTRY };
  return value;
}

const DOMAIN_FIELDS = `
  __typename id label { interpreted beautified hash } owner { address } registry { __typename id } subregistry { id }
  parent { id canonical { name { interpreted } } } canonical { depth name { interpreted beautified } path { id } }
  resolver { assigned { id } effective { id } }
  registration { __typename expiry start registrant { address } ... on BaseRegistrarRegistration { wrapped { fuses } } }
  registrations(first: 2) { totalCount edges { cursor node { id } } }
  ... on ENSv1Domain { node rootRegistryOwner { address } }
  ... on ENSv2Domain { tokenId permissions(first: 2) { totalCount edges { node { roles user { address } } } } }`;

/** Cookbook queries with integer literals for CoinType arguments: graphql-jit cannot compile them (compiled.ts). */
const BIGINT_LITERALS = new Set(["domain-records", "domain-profile-and-records", "offchain-name"]);

describe("/api/omnigraph's compiled executor", () => {
  it.skipIf(skipWithoutPeerOmnigraph("the compiled executor's cookbook test"))(
    "answers the peer's cookbook as graphql-js does",
    async () => {
      const cookbook = peerCookbook();
      let withData = 0;
      for (const example of cookbook) {
        const variables = Object.fromEntries(
          Object.entries(example.variables).map(([k, v]) => [k, fixtureValue(k, v)]),
        );
        const { compiled } = await both({ query: example.query, variables });
        expect(compiled.compiled, example.id).toBe(!BIGINT_LITERALS.has(example.id));
        if (compiled.body.data) withData++;
      }
      // Resolution has no chain here, so it fails; everything else answers.
      expect(withData).toBe(cookbook.length);
      // Events are answered from the index (indexed_log), so no list is nulled under a failed non-null field.
      expect(longerErrorLists).toEqual([]);
    },
  );

  it("pages lists of both versions in every order, forwards and backwards, as graphql-js does", async () => {
    for (const by of ["NAME", "DEPTH", "REGISTRATION_TIMESTAMP", "REGISTRATION_EXPIRY"]) {
      for (const dir of ["ASC", "DESC"]) {
        const page = `query($a: Address!, $o: DomainsOrderInput, $after: String, $before: String, $last: Int, $first: Int) {
          account(by: { address: $a }) { domains(order: $o, after: $after, before: $before, first: $first, last: $last) {
            totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { ${DOMAIN_FIELDS} } } } } }`;
        for (const a of [owner, OWNER]) {
          const first = await both({ query: page, variables: { a, o: { by, dir }, first: 3 } });
          const end = (first.js.body.data as any).account.domains.pageInfo.endCursor;
          await both({ query: page, variables: { a, o: { by, dir }, first: 3, after: end } });
          await both({ query: page, variables: { a, o: { by, dir }, last: 2, before: end } });
        }
        await both({
          query: `query($o: DomainsOrderInput) { domain(by: { name: "eth" }) { subdomains(first: 4, order: $o) { totalCount edges { cursor node { ${DOMAIN_FIELDS} subdomains(first: 2) { edges { node { id } } } } } } } }`,
          variables: { o: { by, dir } },
        });
      }
    }
    const merged = await both({
      query: `query($v: ENSProtocolVersion) { domains(first: 7, where: { name: { starts_with: "v" }, version: $v }) { totalCount edges { node { ${DOMAIN_FIELDS} } } } }`,
      variables: {},
    });
    expect((merged.js.body.data as any).domains.edges.length).toBe(7);
    await both({
      query: `query($c: AccountIdInput!) { registry(by: { contract: $c }) { __typename id ... on ENSv2Registry { canonical { domain { id } } domains(first: 3) { totalCount edges { node { ${DOMAIN_FIELDS} } } } } } }`,
      variables: { c: { chainId: CHAIN, address: ETH_REGISTRY } },
    });
  });

  it("reads fragments, aliases, directives, __typename and operations by name as graphql-js does", async () => {
    const query = `
      fragment Names on Domain { canonical { name { interpreted } } label { interpreted } }
      query One($name: InterpretedName!, $deep: Boolean!) {
        a: domain(by: { name: $name }) { ...Names __typename owner @include(if: $deep) { address } }
        b: domain(by: { name: "eth" }) { ...Names subdomains(first: 2) @skip(if: $deep) { totalCount } }
        __typename
      }
      query Two { domain(by: { name: "eth" }) { id } }`;
    for (const deep of [true, false]) {
      const { compiled } = await both({ query, variables: { name: withChildren.name, deep }, operationName: "One" });
      expect(compiled.compiled).toBe(true);
    }
    await both({ query, operationName: "Two" });
    // No operation named so, and more than one operation without a name: graphql-js's own errors.
    await both({ query, operationName: "Three" });
    await both({ query });
    await both({ query: getIntrospectionQuery() });
    await both({ query: `{ __type(name: "ENSv2Domain") { name fields { name args { name defaultValue } } } }` });
  });

  it("fails as graphql-js does: bad variables, names, ids and cursors, null in a non-null field", async () => {
    const byName = `query($name: InterpretedName!) { domain(by: { name: $name }) { id } }`;
    const cases: Request[] = [
      { query: byName },
      { query: byName, variables: { name: 5 } },
      { query: byName, variables: { name: "Not..Normalized" } },
      { query: `{ domain(by: { name: "a..b" }) { id } b: domain(by: { name: "UPPER.eth" }) { id } }` },
      { query: `query($by: DomainIdInput!) { domain(by: $by) { id } }`, variables: { by: { id: "0x1", name: "eth" } } },
      { query: `query($by: DomainIdInput!) { domain(by: $by) { id } }`, variables: { by: {} } },
      {
        query: `query($n: Int!) { domains(first: $n, where: { name: { starts_with: "n" } }) { totalCount } }`,
        variables: { n: "3" },
      },
      {
        query: `query($n: Int!) { domains(first: $n, where: { name: { starts_with: "n" } }) { totalCount } }`,
        variables: { n: 100000 },
      },
      { query: `{ account(by: { address: "${OWNER}" }) { domains(first: 1, after: "garbage") { totalCount } } }` },
      { query: `{ account(by: { address: "not-an-address" }) { address } }` },
      { query: `{ domain(by: { id: "1-0xzz-0x00" }) { id } registry(by: { id: "1-${ETH_REGISTRY}-extra" }) { id } }` },
      {
        query: `{ a: domain(by: { name: "eth" }) { id } b: domain(by: { name: "x..y" }) { id } c: domain(by: { name: "Z" }) { id } }`,
      },
      // Resolution with no chain to ask: an internal error, hidden the same way by both.
      {
        query: `{ domain(by: { name: "${withChildren.name}" }) { id resolve(accelerate: false) { records(keys: { texts: ["url"] }) { texts { key value } } } } }`,
      },
      { query: `{ domain(by: { name: "eth" }) { nope } }` },
    ];
    for (const request of cases) await both(request);
  });

  it("leaves heavy documents, introspection and documents past the compile budget to graphql-js", async () => {
    const fields = `id label { interpreted beautified hash } owner { address } canonical { depth name { interpreted } } registration { __typename expiry registrant { address } } resolver { assigned { id } }`;
    // Three levels of Domain (3 types each) under 20 fields a level: heavier than MAX_COMPILE_WEIGHT.
    const heavy = `{ domain(by: { name: "eth" }) { ${fields} subdomains(first: 3) { edges { node { ${fields} subdomains(first: 2) { edges { node { ${fields} } } } } } } } }`;
    const heavyAnswer = await both({ query: heavy });
    expect(heavyAnswer.compiled.compiled).toBe(false);
    expect((heavyAnswer.js.body.data as any).domain.subdomains.edges.length).toBe(3);
    expect((await both({ query: getIntrospectionQuery() })).compiled.compiled).toBe(false);

    // A budget of 1 ms that never refills, on a clock that is 1 ms later at every reading (so a compile costs 1 ms):
    // the first new document compiles, the next ones do not, and answer the same.
    let clock = 0;
    const spent = new CompileBudget(1, 0, () => (clock += 1));
    const asked = [0, 1, 2].map((i) => `{ domain(by: { name: "eth" }) { id a${i}: label { interpreted } } }`);
    const runs = [];
    for (const query of asked) {
      const js = await executeOmnigraphRequest({ query }, { ...options, compileAfterUses: Number.POSITIVE_INFINITY });
      const compiled = await executeOmnigraphRequest(
        { query },
        { ...options, compileAfterUses: 1, compileBudget: spent },
      );
      expect(JSON.stringify(compiled.body)).toBe(JSON.stringify(js.body));
      runs.push(compiled.compiled);
    }
    expect(runs).toEqual([true, false, false]);
  });
});
