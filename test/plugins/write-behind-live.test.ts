import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { onchainTable } from "ponder";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { liveDbOf } from "../../src/plugins/shared/write-behind/live-db";
import { LiveRows, writeFrozen } from "../../src/plugins/shared/write-behind/live-rows";
import { KeyPredictor } from "../../src/plugins/shared/write-behind/prefetch";
import type { Row } from "../../src/plugins/shared/write-behind/rows";
import { type DatabaseReader, KEYS_PER_STATEMENT } from "../../src/plugins/shared/write-behind/select";
import type { PonderBatchEvent, PonderBatchTransaction } from "../../src/runtime/ponder-hooks";

/*
 * The write-behind store's live tables (write-behind/README.md), on a real PGlite: inside a batch every read and write
 * of a live table is the store's; the batch's changes reach the database at the flush (new rows, changed rows,
 * deleted rows); a complete table answers from memory alone; past the bound a table is evicted and read from the
 * database; a batch Ponder runs again (before or after the flush) starts over from what the database holds.
 */

const account = onchainTable("wb_account", (t) => ({
  id: t.text().primaryKey(),
  balance: t.bigint().notNull(),
  name: t.text(),
  tags: t.text().array(),
}));

const note = onchainTable("wb_note", (t) => ({
  id: t.text().primaryKey(),
  body: t.text().notNull(),
}));

let pglite: PGlite;
let queries = 0;
const tx = (): PonderBatchTransaction => {
  const db = drizzle(pglite, { casing: "snake_case" });
  return {
    $dialect: "pglite",
    $client: pglite,
    wrap: async (query) => {
      queries += 1;
      return query(db);
    },
  };
};
let bound = 1 << 30;
let rows: LiveRows;
let db: ReturnType<typeof liveDbOf>;
/** The next batch, or (`again`) the last batch again: Ponder's retry, as ./batch.ts detects it. */
const begin = async (again = false) => {
  await rows.begin(tx(), again);
};
/** The batch's changes, written and committed in one transaction. */
const flush = async () => {
  await pglite.exec("begin");
  await writeFrozen(tx(), rows.freeze());
  await pglite.exec("commit");
};
const stored = async () =>
  (
    await pglite.query<{ id: string; balance: string; name: string | null }>(
      "select id, balance, name from wb_account order by id",
    )
  ).rows;

beforeAll(async () => {
  pglite = new PGlite();
  await pglite.exec(
    "create table wb_account (id text primary key, balance numeric(78,0) not null, name text, tags text[])",
  );
  await pglite.exec("create table wb_note (id text primary key, body text not null)");
});

afterAll(async () => {
  await pglite.close();
});

beforeEach(async () => {
  await pglite.exec("truncate wb_account");
  bound = 1 << 30;
  rows = new LiveRows([account], () => bound);
  db = liveDbOf(rows);
});

/** Stores `balances` in one batch, then begins the next with the table evicted (a 0-byte bound), counting from 0. */
async function evictedAfterStoring(balances: Record<string, bigint>) {
  await begin();
  for (const [id, balance] of Object.entries(balances)) await db.insert(account).values({ id, balance });
  await flush();
  bound = 0;
  await begin();
  queries = 0;
}

describe("the write-behind store's live tables", () => {
  it("holds a batch's inserts, updates and deletes and writes each row's last state at the flush", async () => {
    await begin();
    await db.insert(account).values({ id: "a", balance: 1n, tags: ["x"] });
    await db.insert(account).values({ id: "b", balance: 2n });
    await db.update(account, { id: "a" }).set((row) => ({ balance: (row.balance as bigint) + 10n }));
    expect(await db.find(account, { id: "a" })).toEqual({ id: "a", balance: 11n, name: null, tags: ["x"] });
    expect(await db.delete(account, { id: "b" })).toBe(true);
    expect(await db.delete(account, { id: "b" })).toBe(false);
    expect(await stored()).toEqual([]);
    await flush();
    expect(await stored()).toEqual([{ id: "a", balance: "11", name: null }]);

    // The next batch changes and deletes stored rows: one UPDATE … FROM and one DELETE.
    await begin();
    await db.insert(account).values({ id: "c", balance: 3n });
    await db.insert(account).values({ id: "a", balance: 0n }).onConflictDoUpdate({ name: "alice" });
    await flush();
    expect(await stored()).toEqual([
      { id: "a", balance: "11", name: "alice" },
      { id: "c", balance: "3", name: null },
    ]);
    await begin();
    await db.delete(account, { id: "a" });
    await flush();
    expect(await stored()).toEqual([{ id: "c", balance: "3", name: null }]);
  });

  it("gives Ponder's store's answers: copies, conflicts, a missing row, a key that cannot change", async () => {
    await begin();
    const inserted = (await db.insert(account).values({ id: "a", balance: 1n, tags: ["x"] })) as { tags: string[] };
    inserted.tags.push("changed by the handler");
    expect((await db.find(account, { id: "a" }))?.tags).toEqual(["x"]);
    expect(await db.insert(account).values({ id: "a", balance: 5n }).onConflictDoNothing()).toBeNull();
    await expect(db.insert(account).values({ id: "a", balance: 5n })).rejects.toThrow(/Unique constraint/);
    await expect(db.update(account, { id: "zz" }).set({ balance: 1n })).rejects.toThrow(/No existing record/);
    await expect(db.update(account, { id: "a" }).set({ id: "b" })).rejects.toThrow(/Primary key/);
    expect(() => db.insert(account).values({ id: "n" } as never)).toThrow(/not-null/);
    expect(await db.find(account, { id: "a" })).toMatchObject({ balance: 1n });
  });

  it("answers a complete table from memory: a key it does not hold is no row, without a database read", async () => {
    await begin();
    await db.insert(account).values({ id: "a", balance: 1n });
    await flush();
    // A row written behind the store's back is not seen: the store owns the table during the backfill.
    await pglite.exec("insert into wb_account values ('ghost', 1, null, null)");
    await begin();
    queries = 0;
    expect(await db.find(account, { id: "ghost" })).toBeNull();
    expect(await db.find(account, { id: "a" })).toMatchObject({ balance: 1n });
    expect(queries).toBe(0);
  });

  it("past the bound, evicts the table and reads it from the database, with the same answers", async () => {
    await evictedAfterStoring({ a: 1n, b: 2n });
    expect(await db.find(account, { id: "a" })).toMatchObject({ balance: 1n });
    expect(await db.find(account, { id: "missing" })).toBeNull();
    expect(queries).toBe(2);
    // Read once, then held for the batch.
    await db.update(account, { id: "a" }).set({ balance: 7n });
    expect(queries).toBe(2);
    // A blind insert of a key never read is new to the database.
    await db.insert(account).values({ id: "c", balance: 3n });
    await flush();
    expect(await stored()).toEqual([
      { id: "a", balance: "7", name: null },
      { id: "b", balance: "2", name: null },
      { id: "c", balance: "3", name: null },
    ]);
  });

  it("past the bound, writes an upsert of its own values and a delete nobody asks about without reading", async () => {
    await evictedAfterStoring({ a: 1n, b: 2n, e: 3n });
    // The same row whether or not the key has one: no read.
    const own = { balance: 5n, name: "five", tags: ["t"] };
    expect(
      await db
        .insert(account)
        .values({ id: "a", ...own })
        .onConflictDoUpdate(own),
    ).toEqual({ id: "a", ...own });
    const fresh = { balance: 6n, name: null, tags: null };
    await db
      .insert(account)
      .values({ id: "c", ...fresh })
      .onConflictDoUpdate(fresh);
    await db.discard(account, { id: "b" });
    await db.discard(account, { id: "z" });
    await db.discard(account, { id: "e" });
    expect(queries).toBe(0);
    // Held now: answered without the database, and written over as any held row.
    expect(await db.find(account, { id: "a" })).toEqual({ id: "a", ...own });
    expect(await db.find(account, { id: "b" })).toBeNull();
    await db.insert(account).values({ id: "e", balance: 8n });
    await db.insert(account).values({ id: "z", balance: 9n });
    await expect(db.insert(account).values({ id: "c", balance: 1n })).rejects.toThrow(/Unique constraint/);
    expect(queries).toBe(0);
    // A set that is not the insert's own values depends on the stored row: it is read.
    await db.insert(account).values({ id: "b2", balance: 1n }).onConflictDoUpdate({ balance: 10n });
    expect(queries).toBe(1);
    await flush();
    expect(await stored()).toEqual([
      { id: "a", balance: "5", name: "five" },
      { id: "b2", balance: "1", name: null },
      { id: "c", balance: "6", name: null },
      { id: "e", balance: "8", name: null },
      { id: "z", balance: "9", name: null },
    ]);
    // The next batch knows what the flush left.
    await begin();
    queries = 0;
    await db.discard(account, { id: "zz" });
    await flush();
    expect((await stored()).map((r) => r.id)).toEqual(["a", "b2", "c", "e", "z"]);
  });

  it("writes unread upserts across several DELETE statements, replacing the stored rows", async () => {
    const n = KEYS_PER_STATEMENT + 7;
    await begin();
    for (let i = 0; i < n; i += 2) await db.insert(account).values({ id: `k${i}`, balance: 1n });
    await flush();
    bound = 0;
    await begin();
    queries = 0;
    for (let i = 0; i < n; i++) {
      const own = { balance: 2n, name: null, tags: null };
      await db
        .insert(account)
        .values({ id: `k${i}`, ...own })
        .onConflictDoUpdate(own);
    }
    expect(queries).toBe(0);
    await flush();
    const all = await pglite.query<{ n: number; two: number }>(
      "select count(*)::int as n, count(*) filter (where balance = 2)::int as two from wb_account",
    );
    expect(all.rows[0]).toEqual({ n, two: n });
  });

  it("lets the handlers go on while a load is on its way: a read waits for it, and a load older than a reset is dropped", async () => {
    await evictedAfterStoring({ a: 1n, b: 2n });
    // A reader whose answer waits for `open`: a pool connection, slow.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const slow: DatabaseReader = {
      wrap: async (query) => {
        await gate;
        return query(drizzle(pglite, { casing: "snake_case" }));
      },
    };
    const keys = (...ids: string[]) => new Map(ids.map((id) => [id, { id }]));
    rows.load(account, keys("a", "missing"), slow);
    let found: unknown = "not yet";
    const reading = db.find(account, { id: "a" }).then((row) => {
      found = row;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(found).toBe("not yet");
    open();
    await reading;
    expect(found).toMatchObject({ id: "a", balance: 1n });
    expect(await db.find(account, { id: "missing" })).toBeNull();
    expect(queries).toBe(0);
    // A retry resets the store while a load is on its way: what it brings is the previous attempt's view, dropped.
    let reopen!: () => void;
    const later = new Promise<void>((resolve) => {
      reopen = resolve;
    });
    const stale: Row[] = [{ id: "b", balance: 99n, name: null, tags: null }];
    rows.load(account, keys("b"), {
      wrap: async <T>() => {
        await later;
        return stale as T;
      },
    });
    await begin(true);
    reopen();
    await rows.settled();
    expect(await db.find(account, { id: "b" })).toMatchObject({ balance: 2n });
    expect(queries).toBe(1);
  });

  it("past the bound, evicts the table with the fewest reads per byte held first, and keeps the others whole", async () => {
    rows = new LiveRows([account, note], () => bound);
    db = liveDbOf(rows);
    await pglite.exec("truncate wb_note");
    await begin();
    // A big table read 50 times (its inserts), and a small one read 10 times, far more per byte: least read first
    // would evict the small one first, which frees almost nothing, and then the big one too.
    for (let i = 0; i < 50; i++) await db.insert(note).values({ id: `n${i}`, body: "x".repeat(500) });
    await db.insert(account).values({ id: "a", balance: 1n });
    for (let i = 0; i < 9; i++) await db.find(account, { id: "a" });
    await flush();
    bound = 1_000;
    await begin();
    queries = 0;
    expect(await db.find(account, { id: "a" })).toMatchObject({ balance: 1n });
    expect(await db.find(account, { id: "missing" })).toBeNull();
    expect(queries).toBe(0);
    expect(await db.find(note, { id: "n7" })).toMatchObject({ body: "x".repeat(500) });
    expect(queries).toBe(1);
  });

  it("starts over from the database when Ponder runs a batch again, before or after its flush", async () => {
    await begin();
    await db.insert(account).values({ id: "a", balance: 1n });
    await flush();
    // Attempt 1 of the next batch fails before its flush: its changes are dropped.
    await begin();
    await db.update(account, { id: "a" }).set({ balance: 100n });
    await db.insert(account).values({ id: "lost", balance: 1n });
    await begin(true);
    expect(await db.find(account, { id: "a" })).toMatchObject({ balance: 1n });
    expect(await db.find(account, { id: "lost" })).toBeNull();
    // Attempt 2 flushes, but its transaction does not commit (the database keeps attempt 1's state): attempt 3
    // begins with the same checkpoint and reads the database again.
    await db.update(account, { id: "a" }).set({ balance: 200n });
    await pglite.exec("begin");
    await writeFrozen(tx(), rows.freeze());
    await pglite.exec("rollback");
    await begin(true);
    expect(await db.find(account, { id: "a" })).toMatchObject({ balance: 1n });
    await db.insert(account).values({ id: "b", balance: 2n });
    await flush();
    expect(await stored()).toEqual([
      { id: "a", balance: "1", name: null },
      { id: "b", balance: "2", name: null },
    ]);
  });

  it("learns the keys an evicted table's reads missed, and loads the rest of the batch's and the next batch's in one query each", async () => {
    const event = (id: string, i: number): PonderBatchEvent =>
      ({
        type: "log",
        checkpoint: String(i),
        eventCallback: { name: "Token:Transfer" },
        chain: { id: 1 },
        event: {
          id: `ev-${i}`,
          args: { to: id, value: BigInt(i) },
          log: { address: "0x00000000000000000000000000000000000000aa", logIndex: i },
          block: { number: BigInt(i), hash: "0x01", timestamp: 1000n },
          transaction: { hash: "0x02", from: "0x03", to: "0x04" },
        },
      }) as unknown as PonderBatchEvent;
    const predictor = new KeyPredictor();
    let now: PonderBatchEvent | undefined;
    rows = new LiveRows(
      [account],
      () => bound,
      (table, key) => predictor.learn(now, table, key, rows),
    );
    db = liveDbOf(rows);
    await begin();
    for (const id of ["a", "b", "c", "d", "e"]) await db.insert(account).values({ id, balance: 1n });
    await flush();
    bound = 0;
    // The first batch of an evicted table: its first read misses and teaches the predictor, which loads that key
    // with the batch's other events' in one query; the handlers' later reads find them held.
    const first = ["a", "d", "e", "nope"].map((id, i) => event(id, 1 + i));
    await begin();
    await predictor.prefetch(tx(), first, rows);
    queries = 0;
    for (const e of first) {
      now = e;
      const { to } = e.event.args as { to: string };
      expect(await db.find(account, { id: to }), to).toEqual(
        to === "nope" ? null : { id: to, balance: 1n, name: null, tags: null },
      );
    }
    expect(queries).toBe(1);
    await flush();
    // The next batch's reads were predicted: one query before the handlers, none in them.
    const events = ["b", "c", "zz"].map((id, i) => event(id, 10 + i));
    await begin();
    queries = 0;
    await predictor.prefetch(tx(), events, rows);
    expect(queries).toBe(1);
    for (const e of events) {
      now = e;
      const { to } = e.event.args as { to: string };
      expect(await db.find(account, { id: to }), to).toEqual(
        to === "zz" ? null : { id: to, balance: 1n, name: null, tags: null },
      );
    }
    expect(queries).toBe(1);
  });
});
