import { PGlite } from "@electric-sql/pglite";
import { getTableColumns } from "drizzle-orm";
import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import { drizzle } from "drizzle-orm/pglite";
import { namehash } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFixture, FIXTURE_HEAD, type Rows } from "../../harness/subgraph-fixture/fixture";
import { tablesDdl } from "../../harness/subgraph-fixture/schema-ddl";
import * as schema from "../../ponder.schema";
import { executeSubgraphRequest } from "../../src/api/subgraph";

/*
 * Ponder's default database is PGlite: the same queries must decode the same way there (numeric as decimal
 * strings, arrays as lists, booleans and integers typed).
 */

let pglite: PGlite;
let rows: Rows;
const meta = async () => ({ block: FIXTURE_HEAD, deployment: "pglite", hasIndexingErrors: false });

beforeAll(async () => {
  pglite = new PGlite();
  for (const stmt of tablesDdl()) await pglite.exec(stmt);
  rows = buildFixture({ secondLevel: 30, accounts: 5 });
  const tables = (Object.values(schema) as unknown[]).filter(
    (v): v is PgTable => typeof v === "object" && v !== null && Symbol.for("drizzle:IsDrizzleTable") in v,
  );
  for (const [name, list] of Object.entries(rows)) {
    const table = tables.find((t) => getTableConfig(t).name === name)!;
    const cols = Object.entries(getTableColumns(table));
    if (list.length === 0) continue;
    const params: unknown[] = [];
    const tuples = list.map((row) => {
      const ph = cols.map(([key]) => {
        const v = row[key];
        params.push(
          v === undefined ? null : typeof v === "bigint" ? v.toString() : Array.isArray(v) ? v.map(String) : v,
        );
        return `$${params.length}`;
      });
      return `(${ph.join(", ")})`;
    });
    await pglite.query(
      `INSERT INTO "${name}" (${cols.map(([, c]) => `"${c.name}"`).join(", ")}) VALUES ${tuples.join(", ")}`,
      params,
    );
  }
});
afterAll(async () => {
  await pglite.close();
});

describe("on PGlite", () => {
  it("decodes every scalar kind like PostgreSQL", async () => {
    const d = rows.domain!.find((x) => x.name === "name00004.eth")!;
    const r = await executeSubgraphRequest(
      {
        query: `{ domain(id: "${namehash("name00004.eth")}") { id createdAt ttl isMigrated subdomainCount expiryDate
          resolver { texts coinTypes address } registration { cost } wrappedDomain { fuses }
          events(first: 3, orderBy: blockNumber) { __typename blockNumber }
          subdomains(orderBy: name, first: 2) { name } } _meta { block { number } } }`,
      },
      { db: drizzle(pglite), getMeta: meta },
    );
    expect(r.body.errors).toBeUndefined();
    const domain = (r.body.data as { domain: Record<string, unknown> }).domain;
    expect(domain).toMatchObject({
      createdAt: String(d.createdAt),
      ttl: String(d.ttl),
      isMigrated: true,
      subdomainCount: 4,
      expiryDate: String(d.expiryDate),
      wrappedDomain: { fuses: 196608 },
      subdomains: [{ name: "sub0.name00004.eth" }, { name: "sub1.name00004.eth" }],
    });
    expect((domain.resolver as { coinTypes: string[] }).coinTypes).toEqual(["60"]);
    expect((domain.resolver as { texts: string[] }).texts.length).toBeGreaterThan(0);
    expect(typeof (domain.events as { blockNumber: number }[])[0]!.blockNumber).toBe("number");
  });

  it("filters and orders", async () => {
    const r = await executeSubgraphRequest(
      {
        query: `{ domains(first: 5, where: { name_contains_nocase: "NAME0001", subdomainCount_gte: 0, owner_: { id_not: "x" } }, orderBy: parent__name, orderDirection: desc) { name } resolvers(where: { texts_contains: ["url"], coinTypes_has: "60" }) { id } }`,
      },
      { db: drizzle(pglite), getMeta: meta },
    );
    expect(r.body.errors).toBeUndefined();
    const data = r.body.data as { domains: { name: string }[]; resolvers: unknown[] };
    expect(data.domains.length).toBe(5);
    expect(data.resolvers.length).toBe(rows.resolver!.filter((x) => (x.texts as string[]).includes("url")).length);
  });
});
