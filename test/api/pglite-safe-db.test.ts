import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { qualifyTables } from "../../src/api/server/pglite-safe-db";

describe("qualifyTables (PGlite API reads)", () => {
  const client = new PGlite();
  const db = qualifyTables(drizzle(client), "idx", ["domain"]);

  beforeAll(async () => {
    await client.exec(`create schema idx; create table idx.domain (id text primary key);
      insert into idx.domain values ('a'), ('b'), ('c');
      create temp table domain (id text)`);
  });
  afterAll(() => client.close());

  const ids = async (query: ReturnType<typeof sql>) =>
    ((await db.execute(query)) as unknown as { rows: { id: string }[] }).rows.map((r) => r.id).sort();

  it("reads the schema's table, not the session's temporary table of the same name", async () => {
    expect(await ids(sql`select id from domain`)).toEqual(["a", "b", "c"]);
  });

  it("keeps an array parameter one parameter (the subgraph loader's `= ANY($1::text[])`)", async () => {
    expect(await ids(sql`select id from domain where id = ANY(${sql.param(["a", "c"])}::text[])`)).toEqual(["a", "c"]);
    expect(await ids(sql`select id from domain where id = ${"b"}`)).toEqual(["b"]);
  });
});
