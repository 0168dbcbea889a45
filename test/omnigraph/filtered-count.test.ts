import { labelhash, namehash } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account, BASE_TIME, buildFixture, withRegistrationOrderKeys } from "../../harness/subgraph-fixture/fixture";
import type { TestDatabase } from "../../harness/subgraph-fixture/pg";
import { executeOmnigraphRequest, type OmnigraphOptions } from "../../src/api/omnigraph";
import { MAX_FILTERED_COUNT } from "../../src/api/omnigraph/limits";
import { seededOmnigraph } from "./seeded-omnigraph";

/*
 * totalCount's two costs (docs/api.md): an unfiltered list's is the indexer's kept count, one read by key at any
 * length; a filtered list's is counted, at most MAX_FILTERED_COUNT matches, and a longer one is a clear error on that
 * field, the rest of the answer intact. `Account.nameReferences`, whose count the indexer does not keep, is counted
 * under the same cap. Over the seeded PostgreSQL fixture plus one parent with one child more than the cap, each child
 * pointing at its owner's address.
 */

const PARENT = "many.xyz";
const BASE_COIN = 0x80000000n | 8453n;
const CHILDREN = MAX_FILTERED_COUNT + 1;

let t: TestDatabase;
let options: OmnigraphOptions;

beforeAll(async () => {
  const rows = buildFixture({ secondLevel: 20, accounts: 4 });
  const domain = (name: string, parentId: string) => ({
    id: namehash(name),
    name,
    labelName: name.split(".")[0],
    labelhash: labelhash(name.split(".")[0]!),
    parentId,
    ownerId: account(1),
    createdAt: BASE_TIME,
    subdomainCount: 0,
    isMigrated: true,
  });
  rows.domain!.push(domain(PARENT, namehash("xyz")));
  for (let i = 0; i < CHILDREN; i++) rows.domain!.push(domain(`${i % 2 ? "b" : "a"}${i}.${PARENT}`, namehash(PARENT)));
  ({ t, options } = await seededOmnigraph("og_count", withRegistrationOrderKeys(rows)));
  // Every child's ETH address record is its owner (as the indexer's name_reference rows say it); three also on Base.
  const references = `INSERT INTO name_reference (id, address, coin_type, holder_id, version, domain_id, chain_id, resolver)
     SELECT '1-' || id || '-' || $3::text, $1, $3::numeric, '1-' || id, 'ENSv1', id, 1, '0x${"11".repeat(20)}'
     FROM domain WHERE parent_id = $2 ORDER BY id LIMIT $4`;
  await t.pool.query(references, [account(1), namehash(PARENT), "60", CHILDREN]);
  await t.pool.query(references, [account(1), namehash(PARENT), BASE_COIN.toString(), 3]);
}, 180_000);

afterAll(async () => {
  await t?.drop();
});

const run = (query: string) => executeOmnigraphRequest({ query, variables: {} }, options);

describe("totalCount of domain lists", () => {
  it("of an unfiltered list is the kept count, however long the list", async () => {
    const r = await run(`{ domain(by: { name: "${PARENT}" }) { subdomains(first: 1) { totalCount } } }`);
    expect(r.body.errors).toBeUndefined();
    expect((r.body.data as any).domain.subdomains.totalCount).toBe(CHILDREN);
  });

  it("of a filtered list is counted up to the cap", async () => {
    const r = await run(
      `{ domain(by: { name: "${PARENT}" }) { subdomains(first: 1, where: { name: { starts_with: "a" } }) { totalCount } } }`,
    );
    expect(r.body.errors).toBeUndefined();
    expect((r.body.data as any).domain.subdomains.totalCount).toBe(Math.ceil(CHILDREN / 2));
  });

  it("of a filtered list longer than the cap is a clear error on that field; the page without totalCount answers", async () => {
    const r = await run(
      `{ domain(by: { name: "${PARENT}" }) { subdomains(first: 2, where: { name: { starts_with: "" } }) { totalCount edges { node { id } } } } }`,
    );
    expect(r.status).toBe(200);
    const errors = r.body.errors as { message: string; path: string[] }[];
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toBe(
      `totalCount of a filtered domain list counts at most ${MAX_FILTERED_COUNT} domains and this one has more: narrow the filter, or page through the list without totalCount`,
    );
    expect(errors[0]!.path).toEqual(["domain", "subdomains", "totalCount"]);
    // totalCount is non-null: the error nulls the connection, as GraphQL does; the same page without it answers.
    const page = await run(
      `{ domain(by: { name: "${PARENT}" }) { subdomains(first: 2, where: { name: { starts_with: "" } }) { edges { node { id } } } } }`,
    );
    expect(page.body.errors).toBeUndefined();
    expect((page.body.data as any).domain.subdomains.edges).toHaveLength(2);
  });
});

describe("totalCount of Account.nameReferences", () => {
  const refs = (where: string, fields: string) =>
    run(`{ account(by: { address: "${account(1)}" }) { nameReferences(first: 2${where}) { ${fields} } } }`);

  it("is counted up to the cap; past it, a clear error on that field, and the page without totalCount answers", async () => {
    const few = await refs(`, where: { coinType: ${BASE_COIN} }`, "totalCount");
    expect(few.body.errors).toBeUndefined();
    expect((few.body.data as any).account.nameReferences.totalCount).toBe(3);

    const r = await refs("", "totalCount edges { node { coinType } }");
    expect(r.status).toBe(200);
    const errors = r.body.errors as { message: string; path: string[] }[];
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toBe(
      `totalCount of Account.nameReferences counts at most ${MAX_FILTERED_COUNT} names and this one has more: narrow it with where.coinType, or page through the list without totalCount`,
    );
    expect(errors[0]!.path).toEqual(["account", "nameReferences", "totalCount"]);
    const page = await refs("", "edges { node { coinType } }");
    expect(page.body.errors).toBeUndefined();
    expect((page.body.data as any).account.nameReferences.edges).toHaveLength(2);
  });
});
