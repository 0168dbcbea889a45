import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PG_URL } from "../../harness/subgraph-fixture/pg";
import { SnapshotError } from "../../snapshot/errors";
import { postDataSchema, runPostData } from "../../snapshot/post-data";

/*
 * A snapshot's post-data list (its keys, indexes and triggers) comes from the file, and restore runs it: the schema
 * admits only those statements' kinds, and each entry runs as one statement, so a file cannot carry another after a
 * `;` behind an allowed prefix.
 */

const schema = `post_data_${process.pid}_${Date.now().toString(36)}`;
let admin: pg.Client;

beforeAll(async () => {
  admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create schema "${schema}"; create table "${schema}".t (a int, b int)`);
});

afterAll(async () => {
  await admin.query(`drop schema if exists "${schema}" cascade`);
  await admin.end();
});

const tableExists = async () =>
  (await admin.query("select to_regclass($1) as t", [`"${schema}".t`])).rows[0].t !== null;

describe("a snapshot's post-data statements", () => {
  it("refuses a statement of another kind before anything runs", () => {
    const parsed = postDataSchema.safeParse([
      { step: 1, sql: `DROP TABLE "${schema}".t`, bytes: 0, ponderSchemaIndex: false },
    ]);
    expect(parsed.success).toBe(false);
  });

  it("runs each entry as one statement: a second one after an allowed prefix is refused and never runs", async () => {
    const smuggled = postDataSchema.parse([
      {
        step: 1,
        sql: `CREATE INDEX t_a ON "${schema}".t (a); DROP TABLE "${schema}".t`,
        bytes: 0,
        ponderSchemaIndex: false,
      },
    ]);
    const error = await runPostData(PG_URL, smuggled, 2).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SnapshotError);
    expect((error as Error).message).toMatch(/a post-data statement failed \(cannot insert multiple commands/);
    expect(await tableExists()).toBe(true);
  });

  it("builds the listed indexes on its connections", async () => {
    const statements = postDataSchema.parse([
      { step: 1, sql: `CREATE INDEX t_a ON "${schema}".t (a)`, bytes: 10, ponderSchemaIndex: false },
      { step: 1, sql: `CREATE INDEX t_b ON "${schema}".t (b)`, bytes: 5, ponderSchemaIndex: true },
    ]);
    await runPostData(PG_URL, statements, 2);
    const { rows } = await admin.query("select indexname from pg_indexes where schemaname = $1 order by 1", [schema]);
    expect(rows.map((r) => r.indexname)).toEqual(["t_a", "t_b"]);
  });
});
