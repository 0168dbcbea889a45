import { labelhash, namehash } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executeOmnigraphRequest, type OmnigraphOptions } from "../../src/api/omnigraph";
import { MAX_FILTERED_COUNT } from "../../src/api/omnigraph/limits";
import { account, BASE_TIME, buildFixture, withRegistrationOrderKeys } from "../subgraph-api/fixture";
import type { TestDatabase } from "../subgraph-api/pg";
import { seededOmnigraph } from "./seeded-omnigraph";

/*
 * totalCount's two costs (docs/api.md): an unfiltered list's is the indexer's kept count, one read by key at any
 * length; a filtered list's is counted, at most MAX_FILTERED_COUNT matches, and a longer one is a clear error on that
 * field, the rest of the answer intact. Over the seeded PostgreSQL fixture plus one parent with one child more than
 * the cap.
 */

const PARENT = "many.xyz";
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
