import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFixture } from "../../harness/subgraph-fixture/fixture";
import type { TestDatabase } from "../../harness/subgraph-fixture/pg";
import { executeOmnigraphRequest, type OmnigraphOptions } from "../../src/api/omnigraph";
import { seededOmnigraph } from "./seeded-omnigraph";

/*
 * No N+1: the SQL statements of an Omnigraph request grow with the depth of its query, not with its page sizes.
 * Over the /subgraph tests' seeded PostgreSQL dataset (no chain: nothing here resolves or reads events' logs).
 */

let t: TestDatabase;
let options: OmnigraphOptions;
let internalErrors: unknown[] = [];

beforeAll(async () => {
  ({ t, options, internalErrors } = await seededOmnigraph("og_test", buildFixture({ secondLevel: 300, accounts: 12 })));
}, 120_000);

afterAll(async () => {
  await t?.drop();
});

async function run(query: string, variables: Record<string, unknown> = {}) {
  const r = await executeOmnigraphRequest({ query, variables }, options);
  expect(r.body.errors).toBeUndefined();
  return r;
}

const NESTED = `query($n: Int!) {
  domain(by: { name: "eth" }) {
    subdomains(first: $n, order: { by: REGISTRATION_EXPIRY, dir: DESC }) {
      totalCount
      edges { node {
        id label { interpreted } owner { address } parent { id } registry { id } resolver { assigned { id } }
        registration { __typename expiry ... on BaseRegistrarRegistration { wrapped { fuses } } }
        subdomains(first: 5) { totalCount edges { node { id owner { address } canonical { name { interpreted } } } } }
      } }
    }
  }
}`;

describe("/api/omnigraph statements per request", () => {
  it("are the same for a page of 5 and a page of 200 (one statement per list per level)", async () => {
    const small = await run(NESTED, { n: 5 });
    const large = await run(NESTED, { n: 200 });
    const edges = (r: typeof small) => (r.body.data as any).domain.subdomains.edges.length;
    expect(edges(small)).toBe(5);
    expect(edges(large)).toBe(200);
    expect(large.statements).toBe(small.statements);
    expect(small.statements).toBeLessThanOrEqual(10);
    expect(internalErrors).toEqual([]);
  });

  it("are the same for an account's 3 names and its 100", async () => {
    const owner = (
      await run(`{ domain(by: { name: "eth" }) { subdomains(first: 1) { edges { node { owner { address } } } } } }`)
    ).body.data as any;
    const address = owner.domain.subdomains.edges[0].node.owner.address;
    const q = `query($a: Address!, $n: Int!) { account(by: { address: $a }) { domains(first: $n) { totalCount edges { node { id registration { expiry } subdomains(first: 3) { totalCount } } } } } }`;
    const small = await run(q, { a: address, n: 3 });
    const large = await run(q, { a: address, n: 100 });
    expect((large.body.data as any).account.domains.edges.length).toBeGreaterThan(3);
    expect(large.statements).toBe(small.statements);
  });

  it("are the same for 3 names pointing at an account and 100 (nameReferences)", async () => {
    const owner = (
      await run(`{ domain(by: { name: "eth" }) { subdomains(first: 1) { edges { node { owner { address } } } } } }`)
    ).body.data as any;
    const address = owner.domain.subdomains.edges[0].node.owner.address;
    // Every domain the account owns points at it (ETH address record), as the indexer would list it.
    await t.pool.query(
      `INSERT INTO name_reference (id, address, coin_type, holder_id, version, domain_id, chain_id, resolver)
       SELECT '31337-' || id || '-60', owner_id, 60, '31337-' || id, 'ENSv1', id, 31337, '0x${"11".repeat(20)}'
       FROM domain WHERE owner_id = $1 ON CONFLICT DO NOTHING`,
      [address],
    );
    const q = `query($a: Address!, $n: Int!) { account(by: { address: $a }) { nameReferences(first: $n) { totalCount edges { node { coinType resolver { id } domain { id registration { expiry } subdomains(first: 3) { totalCount } } } } } } }`;
    const small = await run(q, { a: address, n: 3 });
    const large = await run(q, { a: address, n: 100 });
    const refs = (large.body.data as any).account.nameReferences;
    expect(refs.edges.length).toBeGreaterThan(3);
    expect(refs.totalCount).toBe(refs.edges.length);
    expect(large.statements).toBe(small.statements);
  });

  it("read a domain or a list with its registrations in one statement (the registration joined)", async () => {
    const byName = await run(
      `{ domain(by: { name: "eth" }) { subdomains(first: 1) { edges { node { canonical { name { interpreted } } } } } } }`,
    );
    const name = (byName.body.data as any).domain.subdomains.edges[0].node.canonical.name.interpreted as string;
    const lookup = await run(
      `query($n: InterpretedName!) { domain(by: { name: $n }) { id registration { expiry } } }`,
      {
        n: name,
      },
    );
    expect((lookup.body.data as any).domain.registration.expiry).toBeTruthy();
    expect(lookup.statements).toBe(1);
    const prefix = await run(
      `query($p: String!) { domains(where: { name: { starts_with: $p } }, first: 20) { edges { node { id ...R } } } } fragment R on Domain { registration { expiry } }`,
      { p: name.slice(0, 2) },
    );
    const nodes = (prefix.body.data as any).domains.edges.map((e: any) => e.node);
    expect(nodes.some((n: any) => n.registration !== null)).toBe(true);
    expect(prefix.statements).toBe(1);
    // The same registrations as the level's own statement reads them (asked through `registrations` too).
    const both = await run(
      `query($p: String!) { domains(where: { name: { starts_with: $p } }, first: 20) { edges { node { id registration { id expiry } registrations { edges { node { id expiry } } } } } } }`,
      { p: name.slice(0, 2) },
    );
    for (const e of (both.body.data as any).domains.edges) {
      expect(e.node.registrations.edges.map((r: any) => r.node)).toEqual(
        e.node.registration ? [e.node.registration] : [],
      );
    }
    expect(both.statements).toBe(1);
    expect(internalErrors).toEqual([]);
  });
});
