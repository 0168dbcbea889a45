import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { namehash } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account, buildFixture, FIXTURE_HEAD, RESOLVER_ADDRESS } from "../../harness/subgraph-fixture/fixture";
import { createTestDatabase, type TestDatabase } from "../../harness/subgraph-fixture/pg";
import { executeSubgraphRequest } from "../../src/api/subgraph";

/*
 * The common query shapes must be served by indexes, never by scanning a whole table. With sequential scans
 * disabled, PostgreSQL still picks one only when no index can serve the query, so any `Seq Scan` in these plans
 * means a missing index.
 */

let t: TestDatabase;
const dialect = new PgDialect();

beforeAll(async () => {
  t = await createTestDatabase("sg_plan");
  await t.insert(buildFixture({ secondLevel: 1500, accounts: 40 }));
});
afterAll(async () => {
  await t.drop();
});

/** Runs a GraphQL query, then EXPLAINs every statement it ran. */
async function plans(query: string, on: TestDatabase = t): Promise<string[]> {
  const statements: SQL[] = [];
  const r = await executeSubgraphRequest(
    { query },
    {
      db: {
        execute: (q: SQL) => {
          statements.push(q);
          return on.db.execute(q);
        },
      },
      getMeta: async () => ({ block: FIXTURE_HEAD, deployment: "plan", hasIndexingErrors: false }),
    },
  );
  expect(r.body.errors).toBeUndefined();
  const client = await on.pool.connect();
  try {
    await client.query("SET enable_seqscan = off");
    const out: string[] = [];
    for (const s of statements) {
      const { sql, params } = dialect.sqlToQuery(s);
      const res = await client.query(`EXPLAIN ${sql}`, params);
      out.push(res.rows.map((row) => row["QUERY PLAN"]).join("\n"));
    }
    return out;
  } finally {
    await client.query("RESET enable_seqscan");
    client.release();
  }
}

const ETH = namehash("eth");
const NAME = "name00042.eth";

const shapes: [string, string][] = [
  ["domain by id", `{ domain(id: "${namehash(NAME)}") { id name } }`],
  ["domains by name", `{ domains(where: { name: "${NAME}" }) { id } }`],
  ["domains by name_in", `{ domains(where: { name_in: ["${NAME}", "eth"] }) { id } }`],
  [
    "domains by labelhash",
    `{ domains(first: 1, where: { labelhash: "0x${"12".repeat(32)}", labelName_not: null }) { labelName } }`,
  ],
  ["domains of an owner", `{ domains(first: 100, where: { owner: "${account(3)}" }, orderBy: name) { id } }`],
  ["domains of a registrant", `{ domains(where: { registrant: "${account(3)}" }) { id } }`],
  ["domains of a wrapped owner", `{ domains(where: { wrappedOwner: "${account(3)}" }) { id } }`],
  ["domains resolving to an address", `{ domains(where: { resolvedAddress: "${account(3)}" }) { id } }`],
  [
    "account.domains",
    `{ account(id: "${account(3)}") { domains(first: 100, orderBy: createdAt, orderDirection: desc) { id } } }`,
  ],
  ["subdomains by parent filter", `{ domains(first: 100, where: { parent: "${ETH}" }) { id } }`],
  [
    "subdomains ordered by createdAt",
    `{ domain(id: "${ETH}") { subdomains(first: 100, orderBy: createdAt, orderDirection: desc) { id } } }`,
  ],
  ["subdomains by name", `{ domain(id: "${ETH}") { subdomains(first: 100, orderBy: name) { id } } }`],
  ["latest domains", `{ domains(first: 100, orderBy: createdAt, orderDirection: desc) { id name } }`],
  [
    "latest registrations",
    `{ registrations(first: 100, orderBy: registrationDate, orderDirection: desc) { id domain { name } registrant { id } } }`,
  ],
  [
    "registrations expiring",
    `{ registrations(first: 100, where: { expiryDate_gt: "1700000000" }, orderBy: expiryDate) { id } }`,
  ],
  ["registration by labelhash", `{ registration(id: "0x${"ab".repeat(32)}") { registrant { id } } }`],
  ["registrations of a registrant", `{ registrations(where: { registrant: "${account(3)}" }) { id } }`],
  [
    "domain page with nested relations",
    `{ domains(first: 100, where: { parent: "${ETH}" }) { parent { name } resolver { texts } registration { expiryDate } wrappedDomain { fuses } events(first: 5) { id } subdomains(first: 5) { id } } }`,
  ],
  ["resolvers of a domain", `{ resolvers(where: { domain: "${namehash(NAME)}" }) { texts coinTypes } }`],
  ["resolvers at an address", `{ resolvers(first: 10, where: { address: "${RESOLVER_ADDRESS}" }) { id } }`],
  [
    "text record lookup",
    `{ textChangeds(first: 1, where: { resolver: "${RESOLVER_ADDRESS}-${namehash(NAME)}", key: "avatar" }, orderBy: blockNumber, orderDirection: desc) { value } }`,
  ],
  ["wrapped domains of an owner", `{ wrappedDomains(where: { owner: "${account(3)}" }) { id } }`],
  ["events of a domain", `{ domainEvents(where: { domain: "${namehash(NAME)}" }) { id } }`],
  ["registration events", `{ registration(id: "0x${"ab".repeat(32)}") { events { id } } }`],
  ["resolver events", `{ resolver(id: "${RESOLVER_ADDRESS}-${namehash(NAME)}") { events { id } } }`],
];

describe("no sort of all of a big parent's children", () => {
  // Planned for a generic parent (a batch of parents joined laterally), `eth`'s children were fetched whole and sorted.
  it("subdomains of eth, newest first, read in index order", async () => {
    const [, plan] = await plans(
      `{ domain(id: "${ETH}") { subdomains(first: 100, orderBy: createdAt, orderDirection: desc) { id } } }`,
    );
    expect(plan, plan).toMatch(/Index Scan Backward using domain_(parent_id_)?created_at_(idx|index)/);
    // An incremental sort (ties on createdAt, by id) is fine; a full sort of the children is what this rules out.
    expect(plan, plan).not.toMatch(/(?<!Incremental )Sort\s+\(/);
  });
});

describe("no full scans for common shapes", () => {
  it.each(shapes)("%s", async (_label, query) => {
    for (const plan of await plans(query)) {
      expect(plan, plan).not.toMatch(/Seq Scan/);
    }
  });
});

/*
 * A domain's one-to-one relations embedded in its row (registration, wrappedDomain) are found through their foreign
 * key's index. Walking the relation's primary key in id order until a row matches is an index scan too, but of the
 * whole table for a domain that has none: the planner chose it for the tables an index has right after its backfill,
 * with no column statistics yet (every domain-by-name query then read all of `registration`). Here a fixture large
 * enough for that choice, its statistics removed as before any ANALYZE.
 */
describe("embedded one-to-one relations, before any ANALYZE", () => {
  let big: TestDatabase;
  beforeAll(async () => {
    big = await createTestDatabase("sg_plan_unanalyzed");
    await big.insert(buildFixture({ secondLevel: 12_000, accounts: 40 }));
    await big.pool.query(
      "DELETE FROM pg_statistic WHERE starelid IN (SELECT c.oid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema())",
    );
  }, 120_000);
  afterAll(async () => {
    await big?.drop();
  });

  it.each([
    [
      "registration",
      /registration_domain_id_(idx|index)/,
      `{ domains(where: { name: "${NAME}" }) { id registration { id } } }`,
    ],
    [
      "wrapped domain",
      /wrapped_domain_domain_id_(idx|index)/,
      `{ domains(where: { name: "${NAME}" }) { id wrappedDomain { id } } }`,
    ],
  ])("%s: by its foreign key's index", async (_label, index, query) => {
    const [plan] = await plans(query, big);
    expect(plan, plan).toMatch(index);
    expect(plan, plan).not.toMatch(/registration_pkey|wrapped_domain_pkey/);
  });
});
