import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createDatabase, dropDatabase } from "../../harness/indexer-harness";

/*
 * The entity history's writer across a restart that resumes inside a block (src/lib/entity-history/writer.ts). Ponder's
 * checkpoint can fall between two events of one block; the next process indexes the block's remaining events, and an
 * entity the previous process versioned in that block must keep its one version there (upserted), not get a second.
 * A "process" here is a fresh copy of the writer's modules (vi.resetModules), writing `account_history` on PostgreSQL;
 * the tracked table itself stands in for Ponder's store (the writer only reads back what it wrote).
 */

const DATABASE = `history_resume_${Date.now().toString(36)}`;
let client: pg.Client;

type Row = Record<string, unknown>;

/** `context.db` as the writer uses it: the history table on PostgreSQL, the tracked table in memory. */
function storeOf(historyTable: object) {
  const sqlDb = drizzle(client, { casing: "snake_case" });
  /** Run when awaited, as Ponder's insert is: an insert followed by `onConflictDoUpdate` runs only that. */
  const thenable = <T>(value: () => Promise<T>, extra: object) => ({
    // biome-ignore lint/suspicious/noThenProperty: Ponder's insert is a thenable, and so is this one.
    then: (onFulfilled?: (v: T) => unknown, onRejected?: (e: unknown) => unknown) =>
      value().then(onFulfilled, onRejected),
    ...extra,
  });
  return {
    sql: sqlDb,
    insert: (table: object) => ({
      values: (row: Row) => {
        if (table !== historyTable) return thenable(async () => row, {});
        // biome-ignore lint/suspicious/noExplicitAny: the history table, keyed by (id, version).
        const t = table as any;
        const query = sqlDb.insert(t).values(row);
        return thenable(async () => (await query, row), {
          onConflictDoUpdate: (set: Row) => query.onConflictDoUpdate({ target: [t.id, t.version], set }),
        });
      },
    }),
    delete: async () => true,
  };
}

type Store = {
  insert: (table: unknown) => { values: (row: Row) => PromiseLike<unknown> };
  delete: (table: unknown, key: Row) => Promise<boolean>;
};

/** One process: the writer's modules loaded afresh, as `ponder start` loads them. */
async function newProcess() {
  vi.resetModules();
  const writer = await import("../../src/lib/entity-history/writer");
  const { account, accountHistory } = await import("../../ponder.schema");
  const db = storeOf(accountHistory);
  const block = (number: bigint) => ({ number, timestamp: 1_700_000_000n + number, hash: `0x${number.toString(16)}` });
  /** One handler run on log `logIndex` of block `number`: its writes through the history's store, then its flush. */
  const run = async (number: bigint, logIndex: number, writes: (db: Store) => Promise<unknown>) => {
    const position = writer.logWritePosition("Registry:Transfer", 1, { log: { logIndex }, block: block(number) });
    const history = writer.withEntityHistory(db as never, position);
    await writes(history.db as never);
    await history.flush();
  };
  return { run, account };
}

async function versions(id: string): Promise<{ version: string; deleted: boolean }[]> {
  const { rows } = await client.query(
    "select version::text as version, deleted from account_history where id = $1 order by version",
    [id],
  );
  return rows;
}

beforeAll(async () => {
  client = new pg.Client({ connectionString: await createDatabase(DATABASE) });
  await client.connect();
  await client.query(
    "create table account_history (id text not null, version numeric(78, 0) not null, deleted boolean not null default false, valid_to numeric(78, 0), primary key (id, version))",
  );
});

afterAll(async () => {
  await client?.end();
  await dropDatabase(DATABASE);
});

describe("entity history across a restart inside a block", () => {
  it("upserts the version a previous process wrote in the block, and versions later blocks anew", async () => {
    // Process 1 indexes block 10's first event (an account appears) and stops: its checkpoint is mid-block.
    const first = await newProcess();
    await first.run(10n, 0, (db) => db.insert(first.account).values({ id: "0xaa" }) as Promise<unknown>);
    const created = await versions("0xaa");
    expect(created).toHaveLength(1);

    // Process 2 resumes at block 10's next event, which deletes that account; another account appears.
    const second = await newProcess();
    await second.run(10n, 5, async (db) => {
      await db.delete(second.account, { id: "0xaa" });
      await db.insert(second.account).values({ id: "0xbb" });
    });
    // One version in the block, now the deletion, under the key process 1 gave it.
    expect(await versions("0xaa")).toEqual([{ version: created[0]!.version, deleted: true }]);
    expect(await versions("0xbb")).toHaveLength(1);

    // The next block is this process's own: a write there is a new version.
    await second.run(11n, 0, (db) => db.insert(second.account).values({ id: "0xaa" }) as Promise<unknown>);
    const after = await versions("0xaa");
    expect(after).toHaveLength(2);
    expect(after[1]!.deleted).toBe(false);
  });
});
