import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFixture, type Rows } from "../../harness/subgraph-fixture/fixture";
import type { TestDatabase } from "../../harness/subgraph-fixture/pg";
import { executeOmnigraphRequest, type OmnigraphOptions } from "../../src/api/omnigraph";
import { ETH_REGISTRY, ensv2Rows } from "./ensv2-rows";
import { seededOmnigraph } from "./seeded-omnigraph";

/*
 * A parent's children by registration date or expiry come a page at a time from the `(parent, key, id)` indexes,
 * and a prefix search by name from the name index:
 * the page's statement reads the index in the order asked and stops at the page's end, never sorting every child
 * (`eth` has millions on mainnet). Checked with EXPLAIN on the statements the Omnigraph ran, over the seeded
 * fixture's `eth` (3,000 children) and the ENSv2 fixture's ETH registry.
 */

let t: TestDatabase;
let options: OmnigraphOptions;
const dialect = new PgDialect();

beforeAll(async () => {
  const rows: Rows = { ...buildFixture({ secondLevel: 3000, accounts: 40 }), ...ensv2Rows() };
  ({ t, options } = await seededOmnigraph("og_plan", rows));
}, 120_000);

afterAll(async () => {
  await t?.drop();
});

/** Runs an Omnigraph query and EXPLAINs each statement it ran that orders by `key` (a registration key by default). */
async function keyedPlans(
  query: string,
  variables: Record<string, unknown> = {},
  key = /order by d\.registration_(start|expiry)_key/,
): Promise<string[]> {
  const statements: SQL[] = [];
  const r = await executeOmnigraphRequest(
    { query, variables },
    {
      ...options,
      db: {
        execute: (q: SQL) => {
          statements.push(q);
          return options.db.execute(q);
        },
      },
    },
  );
  expect(r.body.errors).toBeUndefined();
  const out: string[] = [];
  for (const s of statements) {
    const { sql, params } = dialect.sqlToQuery(s);
    if (!key.test(sql)) continue;
    const res = await t.pool.query(`EXPLAIN ${sql}`, params);
    out.push(res.rows.map((row) => row["QUERY PLAN"]).join("\n"));
  }
  return out;
}

/**
 * Every plan reads the key's index under a Limit (a page's worth of rows, in order); sorting happens above that Limit
 * only (a merged list's page), never under it, but for an Incremental Sort that breaks the index order's ties.
 */
const expectIndexOrdered = (plans: string[], index: RegExp) => {
  expect(plans.length).toBeGreaterThan(0);
  for (const plan of plans) {
    // The plan's nodes: its first line and every "->" line (the others are a node's details).
    const nodes = plan.split("\n").filter((line, i) => i === 0 || line.trim().startsWith("->"));
    const scan = nodes.findIndex((line) => /Index (Only )?Scan/.test(line) && index.test(line));
    expect(scan, plan).toBeGreaterThan(0);
    // An Incremental Sort over the index's order only breaks ties (by id) as rows stream through.
    let above = scan - 1;
    while (above > 0 && /Incremental Sort/.test(nodes[above]!)) above--;
    expect(nodes[above], plan).toMatch(/\bLimit\b/);
  }
};

const V1_PAGE = `query($by: DomainsOrderBy!, $dir: OrderDirection!, $after: String) {
  domain(by: { name: "eth" }) {
    subdomains(first: 100, after: $after, order: { by: $by, dir: $dir }) {
      pageInfo { endCursor } edges { node { id canonical { name { interpreted } } owner { address } } }
    }
  }
}`;

describe("/api/omnigraph registration orders read an index", () => {
  for (const [by, key] of [
    ["REGISTRATION_TIMESTAMP", "start"],
    ["REGISTRATION_EXPIRY", "expiry"],
  ] as const) {
    for (const dir of ["DESC", "ASC"] as const) {
      it(`eth's children by ${by} ${dir}, the first page and one after a cursor`, async () => {
        expectIndexOrdered(await keyedPlans(V1_PAGE, { by, dir }), new RegExp(`registration_${key}`));
        const first = await executeOmnigraphRequest({ query: V1_PAGE, variables: { by, dir } }, options);
        const after = (first.body.data as any).domain.subdomains.pageInfo.endCursor;
        expectIndexOrdered(await keyedPlans(V1_PAGE, { by, dir, after }), new RegExp(`registration_${key}`));
      });
    }
  }

  it("an ENSv2 registry's domains by either key", async () => {
    const query = `query($id: RegistryId!, $by: DomainsOrderBy!) {
      registry(by: { id: $id }) { domains(first: 20, order: { by: $by, dir: DESC }) { edges { node { id } } } }
    }`;
    const id = `1-${ETH_REGISTRY}`;
    expectIndexOrdered(await keyedPlans(query, { id, by: "REGISTRATION_TIMESTAMP" }), /registration_start/);
    expectIndexOrdered(await keyedPlans(query, { id, by: "REGISTRATION_EXPIRY" }), /registration_expiry/);
  });

  it("a prefix search by name reads the name index in order (the cookbook's find-domains)", async () => {
    const query = `query($name: DomainsNameFilter!, $dir: OrderDirection!) {
      domains(where: { name: $name }, order: { by: NAME, dir: $dir }, first: 20) { edges { node { id } } }
    }`;
    for (const dir of ["DESC", "ASC"])
      expectIndexOrdered(
        await keyedPlans(query, { name: { starts_with: "nam" }, dir }, /order by d\.name/),
        /domain_name/,
      );
  });
});
