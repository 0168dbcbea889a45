import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error plain JavaScript without types
import { createDatabase } from "../../node_modules/ponder/dist/esm/database/index.js";
// The ponder patch's own modules (patch createQB-pglite-transactions, docs/patches.md): Ponder's query builder, with its PGlite transactions.
// @ts-expect-error plain JavaScript without types
import { createQB, gatePgliteReads } from "../../node_modules/ponder/dist/esm/database/queryBuilder.js";
import { ponderCommon } from "../support/ponder-common";

/*
 * Ponder ran a PGlite "transaction" as its statements committed one by one, so a `ponder start` killed inside one left
 * half of it: a migration's tables without the row saying they exist (the restart failed: "a table with that name
 * already exists"), an indexing batch's rows without their checkpoint (the restart indexed them again). Found by
 * indexer-crash failing once in CI and reproduced by killing restarts at random points (7 of 30 failed). The
 * ponder patch runs the admin and user query builders' transactions between BEGIN and COMMIT.
 */

type QB = {
  transaction<T>(callback: (tx: QB) => Promise<T>): Promise<T>;
  wrap<T>(query: (db: { execute(sql: string): Promise<unknown> }) => Promise<T>): Promise<T>;
};

// Under the project, so the child's script resolves the project's packages.
mkdirSync(resolve(".cache"), { recursive: true });
const work = mkdtempSync(join(resolve(".cache"), "pglite-transactions-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const queryBuilderModule = resolve("node_modules/ponder/dist/esm/database/queryBuilder.js");
const ponderInternal = resolve("node_modules/ponder/dist/esm/internal");

/**
 * Runs, in a child process on a new PGlite directory, a transaction of ten CREATE TABLEs through Ponder's query
 * builder, SIGKILLs the process after the sixth, and returns how many of the tables a reopened directory has.
 */
async function tablesAfterKillMidTransaction(atomicPglite: boolean): Promise<number> {
  const directory = mkdtempSync(join(work, "db-"));
  const script = join(work, `kill-${atomicPglite}.mjs`);
  writeFileSync(
    script,
    `import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { createQB } from ${JSON.stringify(queryBuilderModule)};
import { createNoopLogger } from ${JSON.stringify(join(ponderInternal, "logger.js"))};
import { MetricsService } from ${JSON.stringify(join(ponderInternal, "metrics.js"))};
import { createShutdown } from ${JSON.stringify(join(ponderInternal, "shutdown.js"))};
const common = { logger: createNoopLogger(), metrics: new MetricsService(), shutdown: createShutdown(), options: { command: "start" } };
const pglite = new PGlite(${JSON.stringify(directory)});
const qb = createQB(drizzle(pglite), { common, isAdmin: true, atomicPglite: ${atomicPglite} });
await qb.transaction(async (tx) => {
  for (let i = 0; i < 10; i++) {
    await tx.wrap((db) => db.execute("CREATE TABLE t" + i + " (id text PRIMARY KEY)"));
    if (i === 5) {
      // What was written so far reaches the files before the kill, so only a transaction can keep it out.
      await pglite.syncToFs();
      process.kill(process.pid, "SIGKILL");
    }
  }
});
`,
  );
  const child = spawnSync(process.execPath, [script], { cwd: resolve("."), encoding: "utf8" });
  expect(child.signal, child.stderr).toBe("SIGKILL");
  const reopened = new PGlite(directory);
  const result = await reopened.query<{ count: number }>(
    "SELECT count(*)::int AS count FROM pg_tables WHERE schemaname = 'public' AND tablename LIKE 't%'",
  );
  await reopened.close();
  return result.rows[0]!.count;
}

async function openQB(): Promise<{ qb: QB; pglite: PGlite }> {
  const pglite = new PGlite();
  const qb = createQB(drizzle(pglite), { common: ponderCommon(), isAdmin: false, atomicPglite: true }) as QB;
  await pglite.exec("CREATE TABLE item (id text PRIMARY KEY)");
  return { qb, pglite };
}

const insert = (tx: QB, id: string) => tx.wrap((db) => db.execute(`INSERT INTO item VALUES ('${id}')`));
const ids = async (pglite: PGlite) =>
  (await pglite.query<{ id: string }>("SELECT id FROM item ORDER BY id")).rows.map((r) => r.id);

/**
 * Opens a transaction on `qb` that inserts `first`, then waits for `finish()` before inserting `second` and noting
 * "batch done": an indexing batch held open. Resolves once the transaction is open.
 */
async function heldBatch(
  qb: QB,
  [first, second]: [string, string],
  events: string[],
): Promise<{ batch: Promise<void>; finish: () => void }> {
  let finish!: () => void;
  const mayFinish = new Promise<void>((r) => (finish = r));
  let opened!: () => void;
  const open = new Promise<void>((r) => (opened = r));
  const batch = qb.transaction(async (tx) => {
    await insert(tx, first);
    opened();
    await mayFinish;
    await insert(tx, second);
    events.push("batch done");
  });
  // A batch that fails before it is open rejects here instead of leaving the test waiting.
  await Promise.race([open, batch]);
  return { batch, finish };
}

describe("Ponder's PGlite transactions (ponder patch)", () => {
  it("a process killed inside one leaves none of it", async () => {
    expect(await tablesAfterKillMidTransaction(true)).toBe(0);
  }, 60_000);

  it("without the patch's BEGIN, the same kill leaves the statements run so far (Ponder's own behaviour)", async () => {
    expect(await tablesAfterKillMidTransaction(false)).toBe(6);
  }, 60_000);

  it("a failing transaction is rolled back whole", async () => {
    const { qb, pglite } = await openQB();
    await expect(
      qb.transaction(async (tx) => {
        await insert(tx, "a");
        await insert(tx, "a");
      }),
    ).rejects.toThrow();
    expect(await ids(pglite)).toEqual([]);
    await qb.transaction((tx) => insert(tx, "b"));
    expect(await ids(pglite)).toEqual(["b"]);
    await pglite.close();
  });

  it("a nested transaction is a savepoint: its failure undoes only its own statements", async () => {
    const { qb, pglite } = await openQB();
    await qb.transaction(async (tx) => {
      await insert(tx, "outer");
      await expect(
        tx.transaction(async (inner) => {
          await insert(inner, "inner");
          await insert(inner, "outer"); // a conflict
        }),
      ).rejects.toThrow();
      await tx.transaction((inner) => insert(inner, "kept"));
    });
    expect(await ids(pglite)).toEqual(["kept", "outer"]);
    await pglite.close();
  });

  it("one asked for while another is open commits with it, and the outer COMMIT waits for it", async () => {
    const { qb, pglite } = await openQB();
    const order: string[] = [];
    let releaseSecond!: () => void;
    const secondMayFinish = new Promise<void>((r) => (releaseSecond = r));
    let second!: Promise<void>;
    const first = qb.transaction(async (tx) => {
      await insert(tx, "first");
      second = qb.transaction(async (tx2) => {
        await insert(tx2, "second");
        await secondMayFinish;
        await insert(tx2, "second-late");
        order.push("second done");
      });
    });
    const firstDone = first.then(() => order.push("first done"));
    await new Promise((r) => setTimeout(r, 50));
    expect(order).toEqual([]);
    releaseSecond();
    await Promise.all([firstDone, second]);
    expect(order).toEqual(["second done", "first done"]);
    expect(await ids(pglite)).toEqual(["first", "second", "second-late"]);
    await pglite.close();
  });

  it("the API's gated reads wait for an open transaction, so a failing read cannot abort it", async () => {
    const { qb, pglite } = await openQB();
    const reader = gatePgliteReads(pglite) as PGlite;
    const events: string[] = [];
    const { batch, finish } = await heldBatch(qb, ["a", "b"], events);
    const count = reader.query<{ n: number }>("SELECT count(*)::int AS n FROM item").then((r) => {
      events.push("read");
      return r.rows[0]!.n;
    });
    const failing = reader.query("SELECT * FROM no_such_table").catch((error: Error) => {
      events.push("failed read");
      return error.message;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(events).toEqual([]);
    finish();
    await batch;
    expect(await count).toBe(2);
    expect(await failing).toMatch(/no_such_table/);
    expect(events).toEqual(["batch done", "read", "failed read"]);
    expect(await ids(pglite)).toEqual(["a", "b"]);
    await pglite.close();
  });

  it("Ponder's database is built that way: the indexer's builders run real transactions, the API's reads wait for them", async () => {
    // The query builders `ponder start` gets (database/index.js): a patch that built them without the options above
    // would pass every test of createQB and still run PGlite without transactions.
    const pglite = new PGlite();
    const common = ponderCommon();
    const database = createDatabase({
      common,
      namespace: { schema: "public" },
      preBuild: { databaseConfig: { kind: "pglite_test", instance: pglite } },
      schemaBuild: { schema: {} },
    }) as { adminQB: QB; userQB: QB; readonlyQB: QB };
    await pglite.exec("CREATE TABLE item (id text PRIMARY KEY)");

    await expect(
      database.adminQB.transaction(async (tx) => (await insert(tx, "a"), await insert(tx, "a"))),
    ).rejects.toThrow();
    expect(await ids(pglite)).toEqual([]);

    const events: string[] = [];
    const { batch, finish } = await heldBatch(database.userQB, ["b", "c"], events);
    const read = database.readonlyQB
      .wrap((db) => db.execute("SELECT count(*)::int AS n FROM item"))
      .then((result) => (events.push("read"), (result as { rows: { n: number }[] }).rows[0]!.n));
    const failing = database.readonlyQB
      .wrap((db) => db.execute("SELECT * FROM no_such_table"))
      .catch(() => events.push("failed read"));
    await new Promise((r) => setTimeout(r, 50));
    expect(events).toEqual([]);
    finish();
    await batch;
    expect(await read).toBe(2);
    await failing;
    expect(events).toEqual(["batch done", "read", "failed read"]);
    expect(await ids(pglite)).toEqual(["b", "c"]);
    await pglite.close();
  });
});
