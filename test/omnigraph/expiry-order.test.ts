import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executeOmnigraphRequest, type OmnigraphOptions } from "../../src/api/omnigraph";
import { buildFixture, type Rows } from "../subgraph-api/fixture";
import type { TestDatabase } from "../subgraph-api/pg";
import { seededOmnigraph } from "./seeded-omnigraph";

/*
 * `order: { by: REGISTRATION_EXPIRY }` pages: a domain's key is its registrations' latest expiry, else its wrapped
 * domain's, else none (last ascending, first descending), ties broken by id. The fixture is bent so that every case
 * occurs among `eth`'s children and its grandchildren: two registrations for one domain, a wrapped domain without a
 * registration, neither, and equal expiries. The expected order is computed here from the rows themselves.
 */

const NO_VALUE = 2n ** 63n - 1n;

let t: TestDatabase;
let options: OmnigraphOptions;
let rows: Rows;
let internalErrors: unknown[] = [];

function bend(r: Rows): Rows {
  const eth = r.domain!.find((d) => d.name === "eth")!.id as string;
  const children = r.domain!.filter((d) => d.parentId === eth).map((d) => d.id as string);
  const grandchildren = r.domain!.filter((d) => children.includes(d.parentId as string)).map((d) => d.id as string);
  const wrapped = new Set(r.wrapped_domain!.map((w) => w.domainId as string));
  const withoutRegistration = new Set([...children.filter((_, i) => i % 7 === 3)]);
  r.registration = r.registration!.filter((x) => !withoutRegistration.has(x.domainId as string));
  let n = 0;
  const wrap = (domainId: string, expiryDate: bigint) =>
    r.wrapped_domain!.push({
      id: `${domainId}-w${n++}`,
      domainId,
      expiryDate,
      fuses: 0,
      ownerId: r.account![1]!.id,
      name: null,
    });
  const register = (domainId: string, expiryDate: bigint) =>
    r.registration!.push({
      id: `${domainId}-r${n++}`,
      domainId,
      registrationDate: 1_600_000_000n + BigInt(n),
      expiryDate,
      cost: null,
      registrantId: r.account![1]!.id,
      labelName: null,
    });
  children.forEach((id, i) => {
    if (withoutRegistration.has(id) && i % 2 === 0 && !wrapped.has(id)) wrap(id, 1_700_000_000n + BigInt(i % 3));
    if (i % 11 === 5) register(id, 1_900_000_000n); // a second, later registration: the latest wins
    if (i % 13 === 6) register(id, 1_000_000_000n); // a second, earlier one: ignored
    if (i % 5 === 2 && !withoutRegistration.has(id)) register(id, 1_800_000_000n); // equal keys: ordered by id
  });
  grandchildren.forEach((id, i) => {
    if (i % 3 === 0) register(id, 1_750_000_000n + BigInt(i % 4));
    if (i % 3 === 1) wrap(id, 1_750_000_000n + BigInt(i % 2));
  });
  return r;
}

function keyOf(id: string): bigint {
  const max = (xs: bigint[]) => xs.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).at(-1);
  const reg = max(rows.registration!.filter((x) => x.domainId === id).map((x) => BigInt(x.expiryDate as bigint)));
  const wrap = max(rows.wrapped_domain!.filter((x) => x.domainId === id).map((x) => BigInt(x.expiryDate as bigint)));
  return reg ?? wrap ?? NO_VALUE;
}

function expected(parent: string, dir: "ASC" | "DESC"): string[] {
  const ids = rows.domain!.filter((d) => d.parentId === parent).map((d) => d.id as string);
  const sign = dir === "ASC" ? 1 : -1;
  return ids.sort((a, b) => {
    const ka = keyOf(a);
    const kb = keyOf(b);
    return sign * (ka === kb ? (a < b ? -1 : a > b ? 1 : 0) : ka < kb ? -1 : 1);
  });
}

async function run(query: string, variables: Record<string, unknown> = {}) {
  const r = await executeOmnigraphRequest({ query, variables }, options);
  expect(r.body.errors).toBeUndefined();
  return r.body.data as any;
}

beforeAll(async () => {
  rows = bend(buildFixture({ secondLevel: 120, accounts: 6 }));
  ({ t, options, internalErrors } = await seededOmnigraph("og_expiry", rows));
}, 120_000);

afterAll(async () => {
  await t?.drop();
});

const PAGE = `query($a: String, $dir: OrderDirection!) {
  domain(by: { name: "eth" }) {
    subdomains(first: 9, after: $a, order: { by: REGISTRATION_EXPIRY, dir: $dir }) {
      pageInfo { endCursor hasNextPage } edges { cursor node { id } }
    }
  }
}`;

const BACKWARD = `query($b: String!, $dir: OrderDirection!) {
  domain(by: { name: "eth" }) {
    subdomains(last: 9, before: $b, order: { by: REGISTRATION_EXPIRY, dir: $dir }) { edges { node { id } } }
  }
}`;

describe("/api/omnigraph order by REGISTRATION_EXPIRY", () => {
  for (const dir of ["DESC", "ASC"] as const) {
    it(`pages eth's children ${dir} by latest registration, else wrapped, expiry, then id; forward and back`, async () => {
      const eth = rows.domain!.find((d) => d.name === "eth")!.id as string;
      const want = expected(eth, dir);
      expect(new Set(want.map(keyOf)).has(NO_VALUE)).toBe(true);
      const got: string[] = [];
      const cursors: string[] = [];
      let after: string | null = null;
      do {
        const page: any = (await run(PAGE, { a: after, dir })).domain.subdomains;
        got.push(...page.edges.map((e: any) => e.node.id));
        cursors.push(...page.edges.map((e: any) => e.cursor));
        after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
      } while (after);
      expect(got).toEqual(want);
      const at = Math.floor(want.length / 2);
      const back = (await run(BACKWARD, { b: cursors[at], dir })).domain.subdomains.edges.map((e: any) => e.node.id);
      expect(back).toEqual(want.slice(at - 9, at));
      expect(internalErrors).toEqual([]);
    });
  }

  it("orders each parent's own children in one statement for many parents (the window)", async () => {
    const data = await run(`{
      domain(by: { name: "eth" }) {
        subdomains(first: 120, order: { by: NAME }) { edges { node { id
          subdomains(first: 3, order: { by: REGISTRATION_EXPIRY, dir: DESC }) { edges { node { id } } }
        } } }
      }
    }`);
    const parents = data.domain.subdomains.edges.map((e: any) => e.node);
    const withChildren = parents.filter((p: any) => expected(p.id, "DESC").length > 1);
    expect(withChildren.length).toBeGreaterThan(3);
    for (const p of parents)
      expect(p.subdomains.edges.map((e: any) => e.node.id)).toEqual(expected(p.id, "DESC").slice(0, 3));
  });
});
