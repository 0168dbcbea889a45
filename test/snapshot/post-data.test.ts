import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PG_URL } from "../../harness/subgraph-fixture/pg";
import { SnapshotError } from "../../snapshot/errors";
import { PostDataBuilder, postDataSchema } from "../../snapshot/post-data";

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
      { step: 1, sql: `DROP TABLE "${schema}".t`, bytes: 0, ponderSchemaIndex: false, table: `${schema}.t` },
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
        table: `${schema}.t`,
      },
    ]);
    const error = await new PostDataBuilder(PG_URL, smuggled, 2).finish().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SnapshotError);
    expect((error as Error).message).toMatch(/a post-data statement failed \(cannot insert multiple commands/);
    expect(await tableExists()).toBe(true);
  });

  it("builds a table's indexes once its rows are in, while the others load, and the rest at the end", async () => {
    await admin.query(`create table "${schema}".u (a int)`);
    const statements = postDataSchema.parse([
      {
        step: 1,
        sql: `CREATE INDEX t_a ON "${schema}".t (a)`,
        bytes: 10,
        ponderSchemaIndex: false,
        table: `${schema}.t`,
      },
      {
        step: 1,
        sql: `CREATE INDEX t_b ON "${schema}".t (b)`,
        bytes: 5,
        ponderSchemaIndex: true,
        table: `${schema}.t`,
      },
      {
        step: 1,
        sql: `CREATE INDEX u_a ON "${schema}".u (a)`,
        bytes: 5,
        ponderSchemaIndex: false,
        table: `${schema}.u`,
      },
    ]);
    const indexes = async () =>
      (await admin.query("select indexname from pg_indexes where schemaname = $1 order by 1", [schema])).rows.map(
        (r) => r.indexname,
      );
    const builder = new PostDataBuilder(PG_URL, statements, 2);
    builder.loaded(`${schema}.t`);
    // t's rows are in, u's still loading: t's indexes are built, u's wait.
    for (let i = 0; i < 100 && builder.builtDuringLoad < 2; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await indexes()).toEqual(["t_a", "t_b"]);
    await builder.finish();
    expect(builder.builtDuringLoad).toBe(2);
    expect(await indexes()).toEqual(["t_a", "t_b", "u_a"]);
  });
});
