import { PGlite } from "@electric-sql/pglite";
import { bigint, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// biome-ignore format: on one line, so that the @ts-expect-error under this comment covers the module path
// @ts-expect-error Ponder's built module, as patched (patches/ponder+0.17.7+023+prefetch-keys-as-arrays.patch)
import { createIndexingCache } from "../../node_modules/ponder/dist/esm/indexing-store/cache.js";
import { createTestSchema, type TestSchema } from "../registrars/pg";

/*
 * At 50,000 devnet names a PGlite backfill crashed (`RangeError: Invalid array length` in the protocol reader): the
 * row cache's prefetch of an evicted table bound one parameter per predicted key and key column, and one batch's
 * keys passed 32,767 parameters, which PGlite's reader counted as a negative number. PostgreSQL refuses a statement
 * past 65,535. These tests drive Ponder's row cache over a real database with more predicted keys than either
 * limit, in one batch, and require every predicted row in the cache after one query per table.
 */

const SINGLE_KEYS = 70_000;
const COMPOSITE_KEYS = 30_000; // three key columns: 90,000 parameters bound one per key column and row

const labels = pgTable("prefetch_labels", { id: text("id").primaryKey(), label: text("label") });
const logs = pgTable(
  "prefetch_logs",
  {
    chainId: integer("chain_id").notNull(),
    blockNumber: bigint("block_number", { mode: "bigint" }).notNull(),
    logIndex: integer("log_index").notNull(),
    topic: text("topic"),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.blockNumber, t.logIndex] })],
);

const DDL = [
  "CREATE TABLE prefetch_labels (id text PRIMARY KEY, label text)",
  "CREATE TABLE prefetch_logs (chain_id integer NOT NULL, block_number bigint NOT NULL, log_index integer NOT NULL, topic text, PRIMARY KEY (chain_id, block_number, log_index))",
];
// Every third predicted key has a row; the others must be cached as absent.
const SEED = [
  `INSERT INTO prefetch_labels SELECT 'k' || i, 'label ' || i FROM generate_series(0, ${SINGLE_KEYS - 1}, 3) i`,
  `INSERT INTO prefetch_logs SELECT 1, 5000 + i / 100, i % 100, 'topic ' || i FROM generate_series(0, ${COMPOSITE_KEYS - 1}, 3) i`,
];

const noop = () => {};
const logger = { debug: noop, info: noop, warn: noop, error: noop, trace: noop, child: () => logger };
const common = {
  metrics: { incrementIndexingCacheRequests: noop, ponder_indexing_cache_query_duration: { observe: noop } },
  logger,
  options: { indexingCacheMaxBytes: 1 },
};

/** A log event the way Ponder hands it to the row cache: the label in its args, its place in the chain. */
function logEvent(i: number) {
  return {
    type: "log",
    chain: { id: 1 },
    eventCallback: { name: "Registry:NewLabel" },
    event: {
      id: `event-${i}`,
      args: { label: `k${i}` },
      log: { address: "0x00000000000000000000000000000000000000aa", logIndex: i % 100 },
      block: { hash: `0x${"b".repeat(64)}`, number: 5000n + BigInt(Math.floor(i / 100)), timestamp: 1n },
      transaction: undefined,
    },
  };
}

interface Database {
  db: any;
  dialect: "pglite" | "postgres";
  close(): Promise<void>;
}

/** A row cache over `labels` and `logs`, every table evicted (a resumed index starts so), reading `database`. */
function evictedRowCache(database: Database) {
  // Sampled once (Ponder profiles every tenth event of a kind), then predicted for every event of the batch.
  const eventCount = { "Registry:NewLabel": 1 };
  const cache = createIndexingCache({
    common,
    schemaBuild: { schema: { labels, logs } },
    crashRecoveryCheckpoint: "resumed",
    eventCount,
    chainId: 1,
  });
  const reads = { queries: 0 };
  cache.qb = {
    $dialect: database.dialect,
    wrap: async (query: (db: any) => Promise<unknown>) => {
      reads.queries++;
      return await query(database.db);
    },
  };
  return { cache, reads, eventCount };
}

async function prefetchesEveryPredictedRow(database: Database) {
  const { cache, reads } = evictedRowCache(database);
  // The handler's lookups on one event: Ponder records where each key came from.
  cache.event = logEvent(0);
  await cache.get({ table: labels, key: { id: "k0" } });
  await cache.get({ table: logs, key: { chainId: 1, blockNumber: 5000n, logIndex: 0 } });
  cache.event = undefined;

  const events = Array.from({ length: SINGLE_KEYS }, (_, i) => logEvent(i));
  reads.queries = 0;
  await cache.prefetch({ events });
  expect(reads.queries, "one prefetch query per table").toBe(2);

  reads.queries = 0;
  for (const i of [1, 3, 32_768, 65_535, SINGLE_KEYS - 1]) {
    const row = await cache.get({ table: labels, key: { id: `k${i}` } });
    expect(row, `labels k${i}`).toEqual(i % 3 === 0 ? { id: `k${i}`, label: `label ${i}` } : null);
  }
  for (const i of [1, 3, 16_383, COMPOSITE_KEYS - 3]) {
    const key = { chainId: 1, blockNumber: 5000n + BigInt(Math.floor(i / 100)), logIndex: i % 100 };
    const row = await cache.get({ table: logs, key });
    expect(row, `logs ${i}`).toEqual(i % 3 === 0 ? { ...key, topic: `topic ${i}` } : null);
  }
  expect(reads.queries, "lookups the prefetch had answered").toBe(0);
}

describe("Ponder's row cache prefetching more keys than a statement may bind parameters", () => {
  describe("on PGlite", () => {
    let database: Database;
    beforeAll(async () => {
      const client = new PGlite();
      for (const statement of [...DDL, ...SEED]) await client.exec(statement);
      database = {
        dialect: "pglite",
        db: drizzlePglite(client),
        close: () => client.close(),
      };
    });
    afterAll(() => database?.close());

    it(`loads ${SINGLE_KEYS} one-column and ${COMPOSITE_KEYS} three-column keys in one query per table`, async () => {
      await prefetchesEveryPredictedRow(database);
    });

    it("reads a statement's parameter count past 32,767 (PostgreSQL allows 65,535)", async () => {
      const client = new PGlite();
      try {
        for (const count of [32_768, 65_535]) {
          const placeholders = Array.from({ length: count }, (_, i) => `$${i + 1}`).join(", ");
          const values = Array.from({ length: count }, (_, i) => i);
          const { rows } = await client.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM generate_series(0, 70000) g WHERE g IN (${placeholders})`,
            values,
          );
          expect(rows[0]!.n, `${count} parameters`).toBe(count);
        }
      } finally {
        await client.close();
      }
    });
  });

  describe("on PostgreSQL", () => {
    let schema: TestSchema;
    let database: Database;
    beforeAll(async () => {
      schema = await createTestSchema("prefetch_size");
      for (const statement of [...DDL, ...SEED]) await schema.query(statement);
      database = { dialect: "postgres", db: schema.db, close: async () => {} };
    });
    afterAll(() => schema?.drop());

    it(`loads ${SINGLE_KEYS} one-column and ${COMPOSITE_KEYS} three-column keys in one query per table`, async () => {
      await prefetchesEveryPredictedRow(database);
    });
  });
});
