import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFixture, type Rows, withRegistrationOrderKeys } from "../../harness/subgraph-fixture/fixture";
import type { TestDatabase } from "../../harness/subgraph-fixture/pg";
import { executeOmnigraphRequest, type OmnigraphOptions } from "../../src/api/omnigraph";
import { NO_REGISTRATION_KEY } from "../../src/lib/registration-order";
import { inRegistrationOrder, type ShownDomain, shownKey } from "../support/registration-order";
import { seededOmnigraph } from "./seeded-omnigraph";

/*
 * `order: { by: REGISTRATION_EXPIRY | REGISTRATION_TIMESTAMP }` pages: a domain comes in the order of the
 * registration the API shows for it (its `registration { expiry }` or `{ start }`), a domain without one last
 * ascending and first descending, ties broken by id. The fixture is bent so that every case occurs among `eth`'s
 * children and its grandchildren: a registrar registration, a wrapped domain without one, neither, and equal keys.
 * The expected order is read from the answers' own registrations.
 */

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
      id: domainId,
      domainId,
      expiryDate,
      fuses: 0,
      ownerId: r.account![1]!.id,
      name: null,
    });
  const register = (domainId: string, expiryDate: bigint, registrationDate = 1_600_000_000n + BigInt(n++)) =>
    r.registration!.push({
      id: `${domainId}-r`,
      domainId,
      registrationDate,
      expiryDate,
      cost: null,
      registrantId: r.account![1]!.id,
      labelName: null,
    });
  const registered = new Set(r.registration!.map((x) => x.domainId as string));
  children.forEach((id, i) => {
    if (withoutRegistration.has(id) && i % 2 === 0 && !wrapped.has(id)) wrap(id, 1_700_000_000n + BigInt(i % 3));
    if (i % 5 === 2 && !withoutRegistration.has(id)) {
      // Equal keys: ordered by id.
      r.registration = r.registration!.filter((x) => x.domainId !== id);
      register(id, 1_800_000_000n, 1_650_000_000n);
    }
  });
  grandchildren.forEach((id, i) => {
    if (registered.has(id) || wrapped.has(id)) return;
    if (i % 3 === 0) register(id, 1_750_000_000n + BigInt(i % 4));
    if (i % 3 === 1) wrap(id, 1_750_000_000n + BigInt(i % 2));
  });
  return withRegistrationOrderKeys(r);
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

const PAGE = `query($a: String, $by: DomainsOrderBy!, $dir: OrderDirection!) {
  domain(by: { name: "eth" }) {
    subdomains(first: 9, after: $a, order: { by: $by, dir: $dir }) {
      pageInfo { endCursor hasNextPage } edges { cursor node { id registration { start expiry } } }
    }
  }
}`;

const BACKWARD = `query($b: String!, $by: DomainsOrderBy!, $dir: OrderDirection!) {
  domain(by: { name: "eth" }) {
    subdomains(last: 9, before: $b, order: { by: $by, dir: $dir }) { edges { node { id } } }
  }
}`;

describe("/api/omnigraph order by registration", () => {
  for (const by of ["REGISTRATION_EXPIRY", "REGISTRATION_TIMESTAMP"] as const) {
    for (const dir of ["DESC", "ASC"] as const) {
      it(`pages eth's children ${dir} by ${by} in the order of their shown registrations, then id; forward and back`, async () => {
        const got: ShownDomain[] = [];
        const cursors: string[] = [];
        let after: string | null = null;
        do {
          const page: any = (await run(PAGE, { a: after, by, dir })).domain.subdomains;
          got.push(...page.edges.map((e: any) => e.node));
          cursors.push(...page.edges.map((e: any) => e.cursor));
          after = page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null;
        } while (after);
        const eth = rows.domain!.find((d) => d.name === "eth")!.id as string;
        expect(got.map((n) => n.id).sort()).toEqual(
          rows
            .domain!.filter((d) => d.parentId === eth)
            .map((d) => d.id as string)
            .sort(),
        );
        const keys = got.map((n) => shownKey(n, by));
        // Every case occurs: no registration, wrapped-only (shown as the wrapper's), and ties.
        expect(keys).toContain(NO_REGISTRATION_KEY);
        expect(got.some((n) => n.registration && !rows.registration!.some((r) => r.domainId === n.id))).toBe(true);
        expect(new Set(keys).size).toBeLessThan(keys.length - 1);
        expect(got.map((n) => n.id)).toEqual(inRegistrationOrder(got, by, dir));
        const at = Math.floor(got.length / 2);
        const back = (await run(BACKWARD, { b: cursors[at], by, dir })).domain.subdomains.edges.map(
          (e: any) => e.node.id,
        );
        expect(back).toEqual(got.slice(at - 9, at).map((n) => n.id));
        expect(internalErrors).toEqual([]);
      });
    }
  }

  it("orders each parent's own children in one statement for many parents (the window)", async () => {
    const data = await run(`{
      domain(by: { name: "eth" }) {
        subdomains(first: 120, order: { by: NAME }) { edges { node { id
          all: subdomains(first: 10, order: { by: NAME }) { edges { node { id registration { start expiry } } } }
          top: subdomains(first: 3, order: { by: REGISTRATION_EXPIRY, dir: DESC }) { edges { node { id } } }
        } } }
      }
    }`);
    const parents = data.domain.subdomains.edges.map((e: any) => e.node);
    const withChildren = parents.filter((p: any) => p.all.edges.length > 1);
    expect(withChildren.length).toBeGreaterThan(3);
    for (const p of parents) {
      const all = p.all.edges.map((e: any) => e.node);
      expect(p.top.edges.map((e: any) => e.node.id)).toEqual(
        inRegistrationOrder(all, "REGISTRATION_EXPIRY", "DESC").slice(0, 3),
      );
    }
  });
});
