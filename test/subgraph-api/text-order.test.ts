import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PG_URL } from "../../harness/subgraph-fixture/pg";
import { textOrderWarning } from "../../src/api/subgraph/text-order";

/*
 * The Graph orders text byte-wise; on a database with another default collation /subgraph's text ordering differs,
 * and the API warns the operator at start-up. An ICU database is the case a name check would miss: it still reports
 * datcollate 'C.UTF-8'.
 */

const icuDatabase = `nameindex_text_order_${process.pid}_${Date.now().toString(36)}`;
const admin = new pg.Client({ connectionString: PG_URL });

const readSqlOn = (database: string | undefined) => async (query: string) => {
  const url = new URL(PG_URL);
  if (database) url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    return (await client.query(query)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
};

beforeAll(async () => {
  await admin.connect();
  await admin.query(`CREATE DATABASE "${icuDatabase}" LOCALE_PROVIDER icu ICU_LOCALE 'en-US' TEMPLATE template0`);
});
afterAll(async () => {
  await admin.query(`DROP DATABASE IF EXISTS "${icuDatabase}"`);
  await admin.end();
});

describe("the database's text order", () => {
  it("is byte-wise on the test database (C), and no warning is given", async () => {
    const [row] = await readSqlOn(undefined)("SELECT '100-2' < '1000-1' AS ids, 'B' < 'a' AS cases");
    expect(row).toEqual({ ids: true, cases: true });
    expect(await textOrderWarning(readSqlOn(undefined))).toBeUndefined();
  });

  it("differs from The Graph's on an ICU en-US database, and the operator is told", async () => {
    const read = readSqlOn(icuDatabase);
    const [row] = await read(
      "SELECT datcollate, 'B' < 'a' AS cases, 'f' < 'é' AS accents FROM pg_database WHERE datname = current_database()",
    );
    expect(row).toEqual({ datcollate: expect.stringMatching(/^C/), cases: false, accents: false });
    expect(await textOrderWarning(read)).toMatch(/does not order text byte-wise.*LC_COLLATE 'C'/);
  });
});
