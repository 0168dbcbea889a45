import { drizzle } from "drizzle-orm/node-postgres";
import { pgTable, text } from "drizzle-orm/pg-core";
import pg from "pg";
import { onchainTable } from "ponder";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDatabase, dropDatabase } from "../../harness/indexer-harness";
import { BatchRows } from "../../src/plugins/shared/write-behind/batch";
import { liveDbOf } from "../../src/plugins/shared/write-behind/live-db";
import { LiveRows } from "../../src/plugins/shared/write-behind/live-rows";
import { KeyPredictor } from "../../src/plugins/shared/write-behind/prefetch";
import { completeRow, keyOf } from "../../src/plugins/shared/write-behind/rows";
import { type DatabaseReader, readRows } from "../../src/plugins/shared/write-behind/select";
import type { PonderBatchEvent, PonderBatchTransaction, PonderPoolQuery } from "../../src/runtime/ponder-hooks";

/*
 * The write-behind store's pipeline on PostgreSQL (write-behind/batch.ts): batch N's rows are written in batch N+1's
 * transaction, which commits N's checkpoint, and the last batch's get a transaction of their own at the end. Driven
 * here as Ponder's backfill loop drives it (runtime/omnichain.js with patch omnichain-backfill-batch-hooks): BEGIN,
 * begin, the handlers' writes, flush, the checkpoints the hook hands back upserted, COMMIT; on a failure, abort and
 * ROLLBACK. After every commit the
 * database must hold exactly the batches up to its checkpoint, which is what a SIGKILL at that moment leaves and a
 * restart resumes from.
 */

const account = onchainTable("wb_pipe_account", (t) => ({
  id: t.text().primaryKey(),
  balance: t.bigint().notNull(),
}));
const log = onchainTable("wb_pipe_log", (t) => ({
  id: t.text().primaryKey(),
  note: t.text().notNull(),
}));
const checkpointTable = pgTable("wb_pipe_checkpoint", {
  chainName: text("chain_name").primaryKey(),
  chainId: text("chain_id").notNull(),
  latestCheckpoint: text("latest_checkpoint").notNull(),
  safeCheckpoint: text("safe_checkpoint").notNull(),
  finalizedCheckpoint: text("finalized_checkpoint").notNull(),
});
const chains = [{ id: 1, name: "devnet" }];

const DATABASE = `wb_pipeline_${Date.now().toString(36)}`;
let client: pg.Client;
let databaseUrl: string;
const tx = (): PonderBatchTransaction => ({
  $dialect: "postgres",
  $client: client,
  wrap: async (query) => query(drizzle(client)),
});
const qb = {
  async transaction(fn: (tx: PonderBatchTransaction) => Promise<void>) {
    await client.query("BEGIN");
    try {
      await fn(tx());
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK");
      throw error;
    }
  },
};

const checkpointOf = (batch: number, last = false) => String(batch * 10 + (last ? 9 : 0)).padStart(8, "0");
const eventsOf = (batch: number) =>
  [checkpointOf(batch), checkpointOf(batch, true)].map(
    (checkpoint) =>
      ({ type: "log", checkpoint, eventCallback: { name: "T:E" }, chain: { id: 1 }, event: {} }) as PonderBatchEvent,
  );

let batches: BatchRows;
let live: LiveRows;
/** Ponder's pool as the hook hands it over (`database.userQB`): its own connection, which sees committed rows only. */
let pool: PonderPoolQuery | undefined;

function newProcess(pipeline = true, bound = 1 << 30, predictor = new KeyPredictor()) {
  live = new LiveRows([account], () => bound);
  batches = new BatchRows({ live, predictor, settings: () => ({ live: true, pipeline }) });
}

/**
 * Batch 4 fails at its commit, taking batch 3's rows (which its transaction carried) with it, and runs again: what
 * the retry's first read of acct-3 (batch 3's) sees.
 */
async function afterFailedRetry(find: (id: string) => Promise<unknown>): Promise<unknown> {
  await runBatch(4, handlers, true);
  let retried: unknown;
  await runBatch(4, async (n) => {
    retried = await find("acct-3");
    await handlers(n);
  });
  return retried;
}

/** Ponder's pool as the hook hands it over, on a connection of its own, noting each read. */
async function countingPool() {
  const poolClient = new pg.Client({ connectionString: databaseUrl });
  const pooled: string[] = [];
  pool = {
    wrap: async (query) => {
      pooled.push("read");
      return query(drizzle(poolClient));
    },
  };
  await poolClient.connect();
  return { poolClient, pooled };
}

/** A predictor that always predicts `ids` of the account table, and notes which connection each prefetch read. */
class FixedPredictor extends KeyPredictor {
  readonly readers: ("pool" | "transaction")[] = [];
  constructor(private readonly ids: string[]) {
    super();
  }
  override async prefetch(reader: DatabaseReader, _events: readonly PonderBatchEvent[], rows: LiveRows) {
    if (!rows.incompleteTables().includes(account)) return;
    const wanted = this.ids.filter((id) => !rows.known(account, id));
    if (wanted.length === 0) return;
    this.readers.push(reader === pool ? "pool" : "transaction");
    rows.loaded(
      account,
      wanted,
      await readRows(
        reader,
        account,
        wanted.map((id) => ({ id })),
      ),
    );
  }
}

/** The handlers of batch `n`: account `a` gets balance n, account `n` is created, and log row `n` is inserted. */
async function handlers(n: number) {
  const db = liveDbOf(live);
  await db
    .insert(account)
    .values({ id: "a", balance: BigInt(n) })
    .onConflictDoUpdate({ balance: BigInt(n) });
  await db.insert(account).values({ id: `acct-${n}`, balance: 0n });
  const row = completeRow(log, { id: `log-${n}`, note: `batch ${n}` });
  batches.set(log, keyOf(log, row), row);
}

/** One batch as Ponder's loop runs it; `fail` rolls its transaction back after the checkpoint, as a failed commit. */
async function runBatch(n: number, work = handlers, fail = false) {
  await client.query("BEGIN");
  try {
    await batches.begin(tx(), eventsOf(n), pool);
    await work(n);
    await batches.flush(tx());
    const checkpoints = batches.checkpoints([{ chainId: 1, checkpoint: checkpointOf(n, true) }]);
    await client.query(
      `INSERT INTO wb_pipe_checkpoint VALUES ('devnet', '1', $1, $1, $1)
       ON CONFLICT (chain_name) DO UPDATE SET latest_checkpoint = excluded.latest_checkpoint`,
      [checkpoints[0]!.checkpoint],
    );
    if (fail) throw new Error("the commit failed");
    await client.query("COMMIT");
  } catch (error) {
    await batches.abort();
    await client.query("ROLLBACK");
    if (!fail) throw error;
  }
}

/** What the database holds: the checkpoint's batch, and which batches' rows are there. */
async function committed() {
  const cp = await client.query<{ c: string }>("SELECT latest_checkpoint AS c FROM wb_pipe_checkpoint");
  const logs = await client.query<{ id: string; note: string }>("SELECT id, note FROM wb_pipe_log ORDER BY id");
  const accounts = await client.query<{ id: string; balance: string }>(
    "SELECT id, balance::text AS balance FROM wb_pipe_account ORDER BY id",
  );
  return {
    batch: cp.rows[0] === undefined ? 0 : Math.floor(Number(cp.rows[0].c) / 10),
    logs: logs.rows.map((r) => `${r.id}=${r.note}`),
    accounts: Object.fromEntries(accounts.rows.map((r) => [r.id, r.balance])),
  };
}

/** The rows batches 1..k leave, with `handlers`. */
function prefixOf(k: number) {
  const numbers = Array.from({ length: k }, (_, i) => i + 1);
  return {
    batch: k,
    logs: numbers.map((n) => `log-${n}=batch ${n}`).sort(),
    accounts: Object.fromEntries([...(k > 0 ? [["a", String(k)]] : []), ...numbers.map((n) => [`acct-${n}`, "0"])]),
  };
}

beforeAll(async () => {
  databaseUrl = await createDatabase(DATABASE);
  client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query("CREATE TABLE wb_pipe_account (id text PRIMARY KEY, balance numeric(78,0) NOT NULL)");
  await client.query("CREATE TABLE wb_pipe_log (id text PRIMARY KEY, note text NOT NULL)");
  await client.query(`CREATE TABLE wb_pipe_checkpoint (chain_name text PRIMARY KEY, chain_id text NOT NULL,
    latest_checkpoint text NOT NULL, safe_checkpoint text NOT NULL, finalized_checkpoint text NOT NULL)`);
});

afterAll(async () => {
  await client?.end();
  await dropDatabase(DATABASE);
});

beforeEach(async () => {
  await client.query("TRUNCATE wb_pipe_account, wb_pipe_log, wb_pipe_checkpoint");
  pool = undefined;
  newProcess();
});

describe("the write-behind store's pipeline", () => {
  it("commits each batch's rows with its own checkpoint, one transaction late, and the last at the end", async () => {
    await runBatch(1);
    // A process's first batch is written in its own transaction.
    expect(await committed()).toEqual(prefixOf(1));
    await runBatch(2);
    // Batch 2's rows wait for batch 3's transaction: the one just committed holds batch 1's checkpoint again.
    expect(await committed()).toEqual(prefixOf(1));
    for (const n of [3, 4, 5]) {
      await runBatch(n);
      expect(await committed()).toEqual(prefixOf(n - 1));
    }
    await batches.end({ qb, checkpointTable, chains });
    expect(await committed()).toEqual(prefixOf(5));
  });

  it("writes the previous batch's rows again when Ponder runs a batch again, and nothing twice", async () => {
    await runBatch(1);
    await runBatch(2);
    // Batch 3 fails twice: once in a handler (before its flush), once at its commit (after it).
    await runBatch(
      3,
      async (n) => {
        await handlers(n);
        throw new Error("a handler failed");
      },
      true,
    );
    expect(await committed()).toEqual(prefixOf(1));
    await runBatch(3, handlers, true);
    expect(await committed()).toEqual(prefixOf(1));
    await runBatch(3);
    expect(await committed()).toEqual(prefixOf(2));
    await runBatch(4);
    await batches.end({ qb, checkpointTable, chains });
    expect(await committed()).toEqual(prefixOf(4));
  });

  it("resumes after a SIGKILL from what the database holds", async () => {
    for (const n of [1, 2, 3]) await runBatch(n);
    // The process dies with batch 3's rows in memory: the database holds batches 1 and 2 and their checkpoint.
    expect(await committed()).toEqual(prefixOf(2));
    newProcess();
    for (const n of [3, 4]) await runBatch(n);
    await batches.end({ qb, checkpointTable, chains });
    expect(await committed()).toEqual(prefixOf(4));
  });

  it("updates an insert-only row of the previous batch, still on its way, after its COPY", async () => {
    await runBatch(1);
    await runBatch(2);
    await runBatch(3, async (n) => {
      await handlers(n);
      // The version batch 2 wrote, changed again (its block went on into this batch).
      const previous = batches.get(log, "log-2");
      expect(previous).toMatchObject({ note: "batch 2" });
      batches.set(log, "log-2", { ...previous, note: "batch 2, then 3" });
    });
    await runBatch(4);
    await batches.end({ qb, checkpointTable, chains });
    const { logs } = await committed();
    expect(logs).toEqual(["log-1=batch 1", "log-2=batch 2, then 3", "log-3=batch 3", "log-4=batch 4"]);
  });

  it("reads what it does not hold through the pool while the previous batch is on its way, never after a retry", async () => {
    // A 0-byte bound: the account table is evicted once it holds a row, so a key it does not hold is read.
    newProcess(true, 0);
    const { poolClient, pooled } = await countingPool();
    try {
      await runBatch(1);
      await runBatch(2);
      const find = (id: string) => liveDbOf(live).find(account, { id });
      let seen: Record<string, unknown> = {};
      await runBatch(3, async (n) => {
        await handlers(n);
        // "a" and "acct-2" are batch 2's, still on their way: held. "acct-1" is committed, and "nobody" is no row.
        seen = {
          a: await find("a"),
          acct1: await find("acct-1"),
          acct2: await find("acct-2"),
          none: await find("nobody"),
        };
      });
      expect(seen).toEqual({
        a: { id: "a", balance: 3n },
        acct1: { id: "acct-1", balance: 0n },
        acct2: { id: "acct-2", balance: 0n },
        none: null,
      });
      expect(pooled).toHaveLength(2);
      // Batch 4's transaction fails: batch 3's rows, which it carried, are rolled back with it. The retry writes them
      // again in its own transaction, which alone has them: its reads must not go to the pool.
      expect(await afterFailedRetry(find)).toEqual({ id: "acct-3", balance: 0n });
      expect(pooled).toHaveLength(2);
      await batches.end({ qb, checkpointTable, chains });
      expect(await committed()).toEqual(prefixOf(4));
    } finally {
      await poolClient.end();
    }
  });

  it("prefetches through the pool beside the previous batch's write, through the transaction after a retry", async () => {
    const predictor = new FixedPredictor(["acct-1", "acct-3", "nobody"]);
    newProcess(true, 0, predictor);
    const { poolClient, pooled } = await countingPool();
    const find = (id: string) => liveDbOf(live).find(account, { id });
    try {
      await runBatch(1);
      await runBatch(2);
      let seen: unknown[] = [];
      await runBatch(3, async (n) => {
        seen = [await find("acct-1"), await find("nobody")];
        await handlers(n);
      });
      // Both answered by the prefetch, which read the committed batch 1 through the pool: no read one by one.
      expect(seen).toEqual([{ id: "acct-1", balance: 0n }, null]);
      expect(predictor.readers.at(-1)).toBe("pool");
      const pooledBefore = pooled.length;
      // Batch 4's transaction fails, taking batch 3's rows (acct-3) with it; the retry writes them again, and only its
      // transaction has them: a prefetch through the pool would find no acct-3.
      expect(await afterFailedRetry(find)).toEqual({ id: "acct-3", balance: 0n });
      expect(predictor.readers.at(-1)).toBe("transaction");
      expect(pooled.length).toBe(pooledBefore + 1); // the failed attempt's prefetch, before its rollback
      await batches.end({ qb, checkpointTable, chains });
      expect(await committed()).toEqual(prefixOf(4));
    } finally {
      await poolClient.end();
    }
  });

  it("writes every batch in its own transaction with the pipeline off", async () => {
    newProcess(false);
    for (const n of [1, 2, 3]) {
      await runBatch(n);
      expect(await committed()).toEqual(prefixOf(n));
    }
    await batches.end({ qb, checkpointTable, chains });
    expect(await committed()).toEqual(prefixOf(3));
  });

  it("commits a batch without waiting for its WAL to reach the disk, that transaction alone", async () => {
    newProcess();
    const setting = async () =>
      (await client.query<{ synchronous_commit: string }>("SHOW synchronous_commit")).rows[0]!.synchronous_commit;
    const before = await setting();
    let during: string | undefined;
    await runBatch(1, async (n) => {
      during = await setting();
      await handlers(n);
    });
    expect(during).toBe("off");
    expect(before).not.toBe("off");
    expect(await setting()).toBe(before);
  });
});
