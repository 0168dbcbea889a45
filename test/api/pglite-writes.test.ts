import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { trackPgliteWrites } from "../../src/api/shared/pglite-writes";
import { ponderHeadToken, untilNextWrite } from "../../src/api/subgraph";

/*
 * The write counter on a real PGlite instance, driven the way Ponder drives it (drizzle over the instance, raw
 * `query`/`exec`, `transaction`), and the head token built on it.
 */

const client = new PGlite();
const { writes, reader } = trackPgliteWrites(client);
// What Ponder's code writes through, and what the API reads through.
const ponderDb = drizzle(client);
const apiDb = drizzle(reader);

const count = async () => Number((await reader.query<{ n: number }>(`select count(*)::int as n from t`)).rows[0]!.n);

beforeAll(async () => {
  await client.exec(`create table t (id int primary key);
    create table _ponder_checkpoint (chain_id int, latest_checkpoint text);
    insert into _ponder_checkpoint values (1, '100');
    create table _ponder_meta (key text primary key, value jsonb);
    insert into _ponder_meta values ('app', '{}')`);
});
afterAll(() => client.close());

describe("trackPgliteWrites", () => {
  it("moves after each query, exec and transaction has completed, before the caller resumes", async () => {
    const g0 = writes.generation;
    const pending = client.query(`insert into t values (1)`);
    expect(writes.generation).toBe(g0);
    await pending;
    expect(writes.generation).toBe(g0 + 1);
    await client.exec(`insert into t values (2)`);
    expect(writes.generation).toBe(g0 + 2);
    await ponderDb.execute(sql`insert into t values (3)`);
    expect(writes.generation).toBe(g0 + 3);
    await client.transaction(async (tx) => {
      await tx.query(`insert into t values (4)`);
      await tx.query(`insert into t values (5)`);
      // Inside the transaction nothing has completed yet.
      expect(writes.generation).toBe(g0 + 3);
    });
    expect(writes.generation).toBe(g0 + 4);
    // Ponder's flush: COPY from a blob through `query`.
    await client.query(`COPY t FROM '/dev/blob'`, [], { blob: new Blob(["6\n7\n"]) });
    expect(writes.generation).toBe(g0 + 5);
    expect(await count()).toBe(7);
  });

  it("counts a failed call (it may have written before failing)", async () => {
    const g0 = writes.generation;
    await expect(client.query(`insert into t values (1)`)).rejects.toThrow(/duplicate key/);
    expect(writes.generation).toBe(g0 + 1);
    await expect(
      client.transaction(async (tx) => {
        await tx.query(`insert into t values (100)`);
        throw new Error("handler failed");
      }),
    ).rejects.toThrow("handler failed");
    expect(writes.generation).toBe(g0 + 2);
    expect(await count()).toBe(7);
  });

  it("does not count the API's reads through the reader, which see every completed write", async () => {
    const g0 = writes.generation;
    await apiDb.execute(sql`select * from t`);
    await reader.query(`select 1`);
    await reader.exec(`select 1`);
    expect(writes.generation).toBe(g0);
    await client.query(`insert into t values (8)`);
    expect(
      ((await apiDb.execute(sql`select count(*)::int as n from t`)) as unknown as { rows: { n: number }[] }).rows[0]!.n,
    ).toBe(8);
  });

  it("makes a read wait for an open transaction to commit (PGlite's transaction lock), so it never sees half of one", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let inserted!: () => void;
    const firstInsert = new Promise<void>((r) => (inserted = r));
    const g0 = writes.generation;
    const tx = client.transaction(async (t) => {
      await t.query(`insert into t values (9)`);
      inserted();
      await gate;
      await t.query(`insert into t values (10)`);
    });
    await firstInsert;
    let readDone = false;
    const read = count().then((n) => {
      readDone = true;
      return n;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(readDone).toBe(false);
    release();
    await tx;
    expect(writes.generation).toBe(g0 + 1);
    expect(await read).toBe(10);
  });

  it("wraps an instance once, however often the API module is loaded", async () => {
    const again = trackPgliteWrites(client);
    expect(again.writes).toBe(writes);
    expect(again.reader).toBe(reader);
    const g0 = writes.generation;
    await client.query(`select 1`);
    expect(writes.generation).toBe(g0 + 1);
  });
});

describe("untilNextWrite: the head token on PGlite", () => {
  it("reads the checkpoint only after a write, and follows every checkpoint write", async () => {
    let reads = 0;
    const sqlToken = ponderHeadToken(apiDb);
    const head = untilNextWrite(() => {
      reads++;
      return sqlToken();
    }, writes);
    const first = await head();
    expect(reads).toBe(1);
    // No write since: no read, whatever the number of requests.
    for (let i = 0; i < 50; i++) expect(await head()).toBe(first);
    expect(reads).toBe(1);
    // Ponder indexes a block: the checkpoint row is rewritten.
    await ponderDb.execute(sql`update _ponder_checkpoint set latest_checkpoint = '101'`);
    const second = await head();
    expect(reads).toBe(2);
    expect(second).not.toBe(first);
    expect(second).toContain(":101:");
    // A heartbeat (another table): one read, the same token.
    await ponderDb.execute(sql`update _ponder_meta set value = '{"heartbeat_at": 1}'`);
    expect(await head()).toBe(second);
    expect(reads).toBe(3);
    expect(await head()).toBe(second);
    expect(reads).toBe(3);
  });

  it("shares one read among concurrent callers and forgets a failed read", async () => {
    let reads = 0;
    let fail = true;
    const counter = { generation: 0 };
    const head = untilNextWrite(async () => {
      reads++;
      await new Promise((r) => setTimeout(r, 5));
      if (fail) throw new Error("checkpoint table unreadable");
      return `token${reads}`;
    }, counter);
    await expect(Promise.all([head(), head(), head()])).rejects.toThrow("unreadable");
    expect(reads).toBe(1);
    fail = false;
    expect(await Promise.all([head(), head()])).toEqual(["token2", "token2"]);
    expect(await head()).toBe("token2");
    counter.generation++;
    expect(await head()).toBe("token3");
    expect(reads).toBe(3);
  });
});

describe("untilNextWrite: `_meta` on PGlite", () => {
  it("keeps an answer until the next write, except one it is told not to keep (a head whose hash is unknown)", async () => {
    let reads = 0;
    const counter = { generation: 0 };
    const hashes = [null, null, "0xabc"];
    const meta = untilNextWrite(
      async () => ({ block: { number: 7, hash: hashes[Math.min(reads++, hashes.length - 1)] } }),
      counter,
      (m) => m.block.hash !== null,
    );
    // Unknown hash: asked again on every call until it is known, with no write in between.
    expect((await meta()).block.hash).toBeNull();
    expect((await meta()).block.hash).toBeNull();
    expect((await meta()).block.hash).toBe("0xabc");
    expect(reads).toBe(3);
    for (let i = 0; i < 10; i++) expect((await meta()).block.hash).toBe("0xabc");
    expect(reads).toBe(3);
    counter.generation++;
    await meta();
    expect(reads).toBe(4);
  });
});
