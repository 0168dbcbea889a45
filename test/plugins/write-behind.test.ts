import { PGlite } from "@electric-sql/pglite";
import { is } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import * as schema from "../../ponder.schema";
import { HISTORY_TABLES } from "../../src/lib/entity-history/tables";
import { validToTriggerSql } from "../../src/lib/entity-history/valid-to-trigger";
import { VALID_TO_PENDING } from "../../src/lib/entity-history/version";
import { backfillBatch } from "../../src/plugins/shared/write-behind/batch";
import { withWriteBehind } from "../../src/plugins/shared/write-behind/db";
import { isWriteBehindTable, LIVE_TABLES } from "../../src/plugins/shared/write-behind/tables";
import { FakeStore } from "../lib/fake-store";

/*
 * The write-behind store's contract with the handlers and with Ponder's backfill loop, on a fake Ponder store and a
 * real PGlite: inside a batch an insert into an insert-only table is held (Ponder's store never sees it) and reads
 * of it answer from the batch; a key held or stored is honoured by `onConflictDoNothing` and `onConflictDoUpdate`;
 * a batch begun again (Ponder retrying it) holds nothing of the failed attempt; the flush COPYs each held row once
 * into the batch's transaction; outside a batch every call is Ponder's store's.
 */

const row = (id: string, ownerId = "0xowner") => ({
  id,
  blockNumber: 7,
  transactionID: "0xabc",
  logVersion: 1n,
  domainId: `0xdomain-${id}`,
  parentDomainId: "0xeth",
  ownerId,
});

let store: FakeStore;
let pglite: PGlite;
const tx = () => ({ $dialect: "pglite" as const, $client: pglite });
const copied = async () =>
  (
    await pglite.query<{ id: string; owner_id: string; log_version: string }>(
      "select id, owner_id, log_version from new_owner order by id",
    )
  ).rows;

beforeAll(async () => {
  pglite = new PGlite();
  await pglite.exec(`create table new_owner (id text primary key, block_number integer not null,
    transaction_id text not null, log_version numeric(78,0) not null, domain_id text not null,
    parent_domain_id text not null, owner_id text not null)`);
  // Two copies of a history table: one the batch writes, without the database's valid_to trigger (the batch must not
  // need it), and one written row by row through the trigger, the answer to compare with.
  for (const table of ["account_history", "account_history_by_trigger"]) {
    await pglite.exec(`create table ${table} (id text not null, version numeric(78,0) not null,
      deleted boolean not null default false, valid_to numeric(78,0), primary key (id, version))`);
  }
  for (const statement of validToTriggerSql("public", "account_history_by_trigger")) await pglite.exec(statement);
});

afterAll(async () => {
  await pglite.close();
});

beforeEach(async () => {
  store = new FakeStore("copies");
  await pglite.exec("truncate new_owner");
  // Leave no batch open between tests.
  if (backfillBatch.open) await backfillBatch.flush(tx());
  await pglite.exec("truncate new_owner");
});

const db = () => withWriteBehind(store.db as never) as unknown as typeof store.db;

describe("the write-behind store", () => {
  it("takes the insert-only tables and leaves the live ones and registrar_action to Ponder's store", () => {
    expect(isWriteBehindTable(schema.indexedLog)).toBe(true);
    expect(isWriteBehindTable(schema.newOwner)).toBe(true);
    for (const history of HISTORY_TABLES) expect(isWriteBehindTable(history)).toBe(true);
    expect(isWriteBehindTable(schema.domain)).toBe(false);
    expect(isWriteBehindTable(schema.registrarAction)).toBe(false);
  });

  it("takes every other table of the schema as a live table (read and written by its live store)", () => {
    const tables = Object.values(schema).filter((t) => is(t, PgTable)) as PgTable[];
    expect(LIVE_TABLES).toContain(schema.domain);
    expect(LIVE_TABLES).toContain(schema.registrarAction);
    expect(LIVE_TABLES.some((t) => isWriteBehindTable(t))).toBe(false);
    expect(tables.filter((t) => !isWriteBehindTable(t) && !LIVE_TABLES.includes(t))).toEqual([]);
  });

  it("holds a batch's inserts, answers reads of them, and COPYs each once at the flush", async () => {
    backfillBatch.begin();
    await db().insert(schema.newOwner).values(row("a"));
    await db().insert(schema.newOwner).values(row("b"));
    expect(store.rows(schema.newOwner).size).toBe(0);
    expect(await db().find(schema.newOwner, { id: "a" })).toMatchObject({ id: "a", ownerId: "0xowner" });
    // Once read by key, the batch's keys are built: a plain insert of a held key is refused at once.
    await expect(db().insert(schema.newOwner).values(row("a"))).rejects.toThrow(/inserted twice/);
    expect(await db().insert(schema.newOwner).values(row("a", "0xother")).onConflictDoNothing()).toBeNull();
    await db()
      .insert(schema.newOwner)
      .values(row("b"))
      .onConflictDoUpdate({ ownerId: "0xnew" } as never);
    await backfillBatch.flush(tx());
    expect(await copied()).toEqual([
      { id: "a", owner_id: "0xowner", log_version: "1" },
      { id: "b", owner_id: "0xnew", log_version: "1" },
    ]);
    expect(backfillBatch.open).toBe(false);
  });

  it("leaves a key inserted twice, with no read by key between, to the database, which refuses the batch's COPY", async () => {
    backfillBatch.begin();
    await db().insert(schema.newOwner).values(row("a"));
    await db().insert(schema.newOwner).values(row("a", "0xother"));
    await expect(backfillBatch.flush(tx())).rejects.toThrow(/duplicate key value violates unique constraint/);
    expect(await copied()).toEqual([]);
    // The failed flush left the batch open; Ponder's retry begins it again.
    expect(backfillBatch.open).toBe(true);
    backfillBatch.begin();
    await db().insert(schema.newOwner).values(row("a"));
    await backfillBatch.flush(tx());
    expect(await copied()).toEqual([{ id: "a", owner_id: "0xowner", log_version: "1" }]);
  });

  it("honours keys an earlier batch wrote (Ponder's store answers for them)", async () => {
    await store.db.insert(schema.newOwner).values(row("old"));
    backfillBatch.begin();
    expect(await db().insert(schema.newOwner).values(row("old", "0xother")).onConflictDoNothing()).toBeNull();
    await db()
      .insert(schema.newOwner)
      .values(row("old"))
      .onConflictDoUpdate({ ownerId: "0xupdated" } as never);
    expect(store.get(schema.newOwner, "old")).toMatchObject({ ownerId: "0xupdated" });
    await backfillBatch.flush(tx());
    expect(await copied()).toEqual([]);
  });

  it("holds nothing of a failed attempt once Ponder begins the batch again", async () => {
    backfillBatch.begin();
    await db().insert(schema.newOwner).values(row("a", "0xfirst-attempt"));
    await db().insert(schema.newOwner).values(row("z"));
    backfillBatch.begin();
    await db().insert(schema.newOwner).values(row("a"));
    await backfillBatch.flush(tx());
    expect(await copied()).toEqual([{ id: "a", owner_id: "0xowner", log_version: "1" }]);
  });

  it("passes every call to Ponder's store outside a batch (setup, realtime)", async () => {
    expect(backfillBatch.open).toBe(false);
    await db().insert(schema.newOwner).values(row("live"));
    expect(store.get(schema.newOwner, "live")).toMatchObject({ ownerId: "0xowner" });
    backfillBatch.begin();
    await backfillBatch.flush(tx());
    expect(await copied()).toEqual([]);
  });

  it("refuses a row without a not-null column, as Ponder's store does", async () => {
    backfillBatch.begin();
    const { ownerId: _, ...incomplete } = row("x");
    expect(() =>
      db()
        .insert(schema.newOwner)
        .values(incomplete as never),
    ).toThrow(/not-null/);
  });

  it("settles a batch's history versions' valid_to itself and closes each id's earlier version, as the trigger would", async () => {
    await pglite.exec("truncate account_history; truncate account_history_by_trigger");
    const pending = VALID_TO_PENDING.toString();
    // Versions of earlier batches, as the trigger left them.
    const earlier = [
      ["a", 10n],
      ["a", 12n],
      ["c", 5n],
    ] as const;
    const held = [
      ["a", 20n],
      ["b", 25n],
      ["a", 30n],
      ["c", 40n],
    ] as const;
    for (const [id, version] of earlier)
      await pglite.query("insert into account_history_by_trigger (id, version, valid_to) values ($1, $2, $3)", [
        id,
        version,
        pending,
      ]);
    await pglite.exec("insert into account_history select * from account_history_by_trigger");
    backfillBatch.begin();
    for (const [id, version] of held)
      await db()
        .insert(schema.accountHistory)
        .values({ id, version, validTo: VALID_TO_PENDING } as never);
    for (const [id, version] of held)
      await pglite.query("insert into account_history_by_trigger (id, version, valid_to) values ($1, $2, $3)", [
        id,
        version,
        pending,
      ]);
    await backfillBatch.flush(tx());
    const read = async (table: string) =>
      (await pglite.query(`select h.id, h.version::text, h.valid_to::text from ${table} h order by h.id, h.version`))
        .rows;
    expect(await read("account_history")).toEqual([
      { id: "a", version: "10", valid_to: "12" },
      { id: "a", version: "12", valid_to: "20" },
      { id: "a", version: "20", valid_to: "30" },
      { id: "a", version: "30", valid_to: null },
      { id: "b", version: "25", valid_to: null },
      { id: "c", version: "5", valid_to: "40" },
      { id: "c", version: "40", valid_to: null },
    ]);
    expect(await read("account_history")).toEqual(await read("account_history_by_trigger"));
  });
});
