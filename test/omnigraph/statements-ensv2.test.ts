import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFixture } from "../../harness/subgraph-fixture/fixture";
import type { TestDatabase } from "../../harness/subgraph-fixture/pg";
import { executeOmnigraphRequest, type OmnigraphOptions } from "../../src/api/omnigraph";
import { CHAIN, CHILDREN, ETH_REGISTRY, ensv2Rows, OWNER, SECOND_LEVEL } from "./ensv2-rows";
import { seededOmnigraph } from "./seeded-omnigraph";

/*
 * No N+1 over ENSv2: an Omnigraph request's SQL statements grow with its depth, not its page sizes, for ENSv2 lists
 * (a registry's domains, a domain's subdomains through its subregistry, an owner's names of both versions) and the
 * fields each ENSv2 domain loads (registry, parent, registration, permissions). A hand-made ENSv2 tree (ensv2-rows.ts)
 * beside the /subgraph tests' ENSv1 dataset.
 */

let t: TestDatabase;
let options: OmnigraphOptions;
let internalErrors: unknown[] = [];

beforeAll(async () => {
  ({ t, options, internalErrors } = await seededOmnigraph("og2_test", {
    ...buildFixture({ secondLevel: 40, accounts: 4 }),
    ...ensv2Rows(),
  }));
}, 120_000);

afterAll(async () => {
  await t?.drop();
});

async function run(query: string, variables: Record<string, unknown> = {}) {
  const r = await executeOmnigraphRequest({ query, variables }, options);
  expect(r.body.errors).toBeUndefined();
  return r;
}

const V2_FIELDS = `
  __typename id label { interpreted } owner { address } registry { id } subregistry { id } parent { id }
  canonical { name { interpreted } } registration { __typename expiry registrant { address } }
  ... on ENSv2Domain { tokenId permissions(first: 2) { totalCount edges { node { roles user { address } } } } }`;

describe("/api/omnigraph statements per request, ENSv2 lists", () => {
  it("a registry's domains and their subdomains: the same for a page of 5 and of 200", async () => {
    const q = `query($c: AccountIdInput!, $n: Int!) { registry(by: { contract: $c }) { ... on ENSv2Registry { canonical
      domains(first: $n, order: { by: REGISTRATION_EXPIRY, dir: DESC }) { totalCount edges { node { ${V2_FIELDS}
        subdomains(first: 5) { totalCount edges { node { ${V2_FIELDS} } } } } } } } } }`;
    const c = { chainId: CHAIN, address: ETH_REGISTRY };
    const small = await run(q, { c, n: 5 });
    const large = await run(q, { c, n: 200 });
    const domains = (r: typeof small) => (r.body.data as any).registry.domains;
    expect(domains(small).edges.length).toBe(5);
    expect(domains(large).edges.length).toBe(200);
    expect(domains(large).totalCount).toBe(SECOND_LEVEL);
    // REGISTRATION_EXPIRY DESC: the newest expiry (the last name) first.
    expect(domains(small).edges[0].node.canonical.name.interpreted).toBe(`v2name${SECOND_LEVEL - 1}.eth`);
    const first = domains(large).edges[0].node;
    expect(first.__typename).toBe("ENSv2Domain");
    expect(first.subdomains.totalCount).toBe(CHILDREN);
    expect(first.subdomains.edges[0].node.parent.id).toBe(first.id);
    expect(first.permissions.edges).toEqual([{ node: { roles: "1", user: { address: OWNER } } }]);
    expect(first.registration.__typename).toBe("ENSv2RegistryRegistration");
    expect(large.statements).toBe(small.statements);
    expect(internalErrors).toEqual([]);
  });

  it("an owner's names of both versions, merged in one list: the same for 3 and for 100", async () => {
    const q = `query($a: Address!, $n: Int!) { account(by: { address: $a }) {
      domains(first: $n) { totalCount edges { cursor node { ${V2_FIELDS} subdomains(first: 2) { totalCount } } } }
      permissions(first: $n) { totalCount edges { node { resource roles } } } } }`;
    const small = await run(q, { a: OWNER, n: 3 });
    const large = await run(q, { a: OWNER, n: 100 });
    const data = (r: typeof small) => (r.body.data as any).account;
    expect(data(large).domains.edges.length).toBe(100);
    expect(data(large).domains.totalCount).toBe(SECOND_LEVEL * (1 + CHILDREN));
    expect(data(large).permissions.totalCount).toBe(SECOND_LEVEL * (1 + CHILDREN));
    expect(large.statements).toBe(small.statements);
    // Pages follow on from a cursor without repeating a name.
    const next = await run(
      `query($a: Address!, $after: String) { account(by: { address: $a }) { domains(first: 100, after: $after) { edges { node { id } } } } }`,
      { a: OWNER, after: (large.body.data as any).account.domains.edges.at(-1).cursor ?? null },
    );
    const seen = new Set(data(large).domains.edges.map((e: any) => e.node.id));
    for (const e of (next.body.data as any).account.domains.edges) expect(seen.has(e.node.id)).toBe(false);
  });

  it("Query.domains merges ENSv1 and ENSv2 names in one order; `version` keeps one", async () => {
    const q = `query($v: ENSProtocolVersion, $n: Int!) { domains(first: $n, where: { name: { starts_with: "v" }, version: $v }) {
      totalCount edges { node { __typename canonical { name { interpreted } } } } } }`;
    const both = await run(q, { n: 100 });
    const v2only = await run(q, { v: "ENSv2", n: 100 });
    const names = (r: typeof both) =>
      (r.body.data as any).domains.edges.map((e: any) => e.node.canonical.name.interpreted as string);
    const sorted = [...names(both)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(names(both).length).toBe(100);
    expect(new Set(names(both))).toEqual(new Set(sorted));
    expect((v2only.body.data as any).domains.totalCount).toBe(SECOND_LEVEL);
    expect((v2only.body.data as any).domains.edges.every((e: any) => e.node.__typename === "ENSv2Domain")).toBe(true);
    const small = await run(q, { n: 3 });
    expect(small.statements).toBe(both.statements);
  });

  it("odd ENSv2 ids and filters answer null or a GraphQL error, never an internal one", async () => {
    const before = internalErrors.length;
    const answers = await Promise.all(
      [
        `{ domain(by: { id: "1-0xzz-0x00" }) { id } }`,
        `{ domain(by: { id: "1-${ETH_REGISTRY}-0x${"0".repeat(64)}" }) { id } }`,
        `{ registry(by: { id: "99999999999-${ETH_REGISTRY}" }) { id } }`,
        `{ registry(by: { id: "1-${ETH_REGISTRY}-extra" }) { id } }`,
        `{ permissions(by: { id: "not-an-id" }) { id } }`,
        `{ permissions(by: { contract: { chainId: 1, address: "${ETH_REGISTRY}" } }) { id root { resource users { totalCount } } resources(first: 2) { totalCount edges { cursor } } } }`,
        `{ account(by: { address: "${OWNER}" }) { domains(first: 1, after: "garbage") { totalCount } } }`,
        `{ account(by: { address: "${OWNER}" }) { registryPermissions(first: 1) { totalCount } resolverPermissions { totalCount } } }`,
      ].map((query) => executeOmnigraphRequest({ query }, options)),
    );
    for (const a of answers) expect(a.status).toBe(200);
    expect((answers[0]!.body.data as any).domain).toBeNull();
    expect((answers[1]!.body.data as any).domain).toBeNull();
    expect((answers[2]!.body.data as any).registry).toBeNull();
    expect((answers[3]!.body.data as any).registry).toBeNull();
    expect((answers[4]!.body.data as any).permissions).toBeNull();
    const perms = (answers[5]!.body.data as any).permissions;
    expect(perms.resources.totalCount).toBe(SECOND_LEVEL);
    expect(answers[6]!.body.errors?.[0]?.message).toMatch(/Invalid cursor/);
    expect((answers[7]!.body.data as any).account.registryPermissions.totalCount).toBe(SECOND_LEVEL * (1 + CHILDREN));
    expect(internalErrors.length).toBe(before);
  });
});
