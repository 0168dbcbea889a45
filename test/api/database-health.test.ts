import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_POSTGRES_URL } from "../../harness/indexer-harness";
import { findFreePort } from "../../scripts/lib/ports";
import { recordFinishedBackfill, schemaStateProbe } from "../../src/api/server/backfill-record";
import { DatabaseHealth, whenBackfillFinished } from "../../src/api/server/database-health";
import { isDatabaseUnavailable } from "../../src/api/shared/database-unavailable";

/*
 * /serving's reading of a schema on the local PostgreSQL (a fresh schema shaped as `ponder start` leaves it): a
 * restarting indexer's `is_ready` 0 is "serving" only once the indexer recorded a finished backfill; a database that
 * cannot be reached is "unavailable" with the driver's reason, within the deadline.
 */

const schema = `health_${Date.now().toString(36)}`;
const client = new pg.Client({ connectionString: LOCAL_POSTGRES_URL });
const readSqlOf = (target: pg.Client | pg.Pool) => async (query: string) =>
  (await target.query(query)).rows as Record<string, unknown>[];
const setReady = (ready: 0 | 1) =>
  client.query(
    `UPDATE "${schema}"._ponder_meta SET value = jsonb_set(value, '{is_ready}', '${ready}') WHERE key = 'app'`,
  );

beforeAll(async () => {
  await client.connect();
  await client.query(`CREATE SCHEMA "${schema}"`);
  await client.query(`CREATE TABLE "${schema}"._ponder_meta (key TEXT PRIMARY KEY, value JSONB NOT NULL)`);
  await client.query(`INSERT INTO "${schema}"._ponder_meta VALUES ('app', '{"is_ready": 0, "is_locked": 1}')`);
  // What the build record's guard makes before Ponder migrates (src/indexing/build-record-store.ts).
  await client.query(`CREATE TABLE "${schema}"._nameindex_build (key TEXT PRIMARY KEY, record JSONB NOT NULL)`);
});

afterAll(async () => {
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});

describe("DatabaseHealth on a schema", () => {
  it("serves once the indexer recorded its finished backfill, whatever is_ready says afterwards", async () => {
    const health = new DatabaseHealth({ probe: schemaStateProbe(readSqlOf(client), schema) });
    // The first backfill under way: not serving.
    expect(await health.check()).toMatchObject({ database: "answers", backfillFinished: false, ponderReady: false });

    // The indexer's process records the first is_ready it reads.
    const recorded = new Promise<void>((resolve) =>
      whenBackfillFinished(health, async () => {
        await recordFinishedBackfill({
          database: { kind: "postgres", connectionString: LOCAL_POSTGRES_URL },
          apiDb: { execute: () => Promise.reject(new Error("PostgreSQL writes through its own connection")) },
          schema,
        });
        resolve();
      }),
    );
    await setReady(1);
    await health.check();
    await recorded;

    // An indexer restart sets is_ready to 0: a replica started now (a new DatabaseHealth) still serves.
    await setReady(0);
    const fresh = new DatabaseHealth({ probe: schemaStateProbe(readSqlOf(client), schema) });
    expect(await fresh.check()).toMatchObject({ database: "answers", backfillFinished: true, ponderReady: false });
    const { rows } = await client.query(`SELECT record FROM "${schema}"._nameindex_build WHERE key = 'backfill'`);
    expect(rows[0].record.finishedAt).toMatch(/^\d{4}-/);
  });

  it("says the database is unavailable, with the driver's reason, when nothing listens", async () => {
    const port = await findFreePort();
    const pool = new pg.Pool({ connectionString: `postgresql://postgres@127.0.0.1:${port}/test` });
    try {
      const health = new DatabaseHealth({ probe: schemaStateProbe(readSqlOf(pool), schema) });
      const state = await health.check();
      expect(state).toMatchObject({ database: "unavailable" });
      expect(state.database === "unavailable" && state.reason).toMatch(/^the database did not answer: .*ECONNREFUSED/);
      expect(health.unavailable()).toMatch(/ECONNREFUSED/);
    } finally {
      await pool.end();
    }
  });

  it("says the database is unavailable once it misses the deadline", async () => {
    const health = new DatabaseHealth({ probe: () => new Promise(() => {}), deadlineMs: 200 });
    const started = performance.now();
    expect(await health.check()).toMatchObject({
      database: "unavailable",
      reason: "the database did not answer within 200 ms",
    });
    expect(performance.now() - started).toBeLessThan(400);
  });

  it("does not count the time its own event loop was blocked against the database", async () => {
    // PostgreSQL answers within milliseconds, but this process's loop is busy for three deadlines (a large document
    // parsed, a first query building a schema): the answer waits unread in the socket, and it is an answer.
    const health = new DatabaseHealth({ probe: schemaStateProbe(readSqlOf(client), schema), deadlineMs: 200 });
    const state = health.check();
    const busyUntil = performance.now() + 600;
    while (performance.now() < busyUntil);
    expect(await state).toMatchObject({ database: "answers" });
    expect(health.unavailable()).toBeUndefined();

    // A database that does not answer is still unavailable when the loop was blocked, within the bounded stretch.
    const silent = new DatabaseHealth({ probe: () => new Promise(() => {}), deadlineMs: 200 });
    const started = performance.now();
    const missed = silent.check();
    while (performance.now() < started + 600);
    expect(await missed).toMatchObject({ database: "unavailable" });
    expect(performance.now() - started).toBeLessThan(200 * 8 + 200);
  });

  it("tells a connection lost under a query from a query's own error", async () => {
    const victim = new pg.Client({ connectionString: LOCAL_POSTGRES_URL });
    await victim.connect();
    victim.on("error", () => {});
    const pid = (await victim.query("SELECT pg_backend_pid() AS pid")).rows[0].pid;
    const killed = victim.query("SELECT pg_sleep(5)").catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 100));
    await client.query(`SELECT pg_terminate_backend(${pid})`);
    expect(isDatabaseUnavailable(await killed)).toBe(true);
    const syntax = await client.query("SELEC 1").catch((e: unknown) => e);
    expect(isDatabaseUnavailable(syntax)).toBe(false);
    const missing = await client.query(`SELECT * FROM "${schema}".nothing_here`).catch((e: unknown) => e);
    expect(isDatabaseUnavailable(missing)).toBe(false);
  });
});
