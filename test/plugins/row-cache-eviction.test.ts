import { pgTable, text } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
// biome-ignore format: on one line, so that the @ts-expect-error under this comment covers the module path
// @ts-expect-error Ponder's built module, as patched (patches/ponder+0.17.7+028+prefetch-evict-only-tables-with-rows.patch)
import { createIndexingCache } from "../../node_modules/ponder/dist/esm/indexing-store/cache.js";

/*
 * Ponder's row cache evicts whole tables once its rows outgrow PONDER_CACHE_BYTES, and an evicted table's lookups
 * are predicted or read from the database one at a time. A table that holds no rows yet (on mainnet: ENSv2's tables
 * before ENSv2 is deployed, a chain whose contracts start later) frees nothing by eviction and must stay whole, so
 * that its first events are answered from memory. These tests drive the cache directly, with a database that counts
 * the queries it is sent.
 */

const names = pgTable("names", { id: text("id").primaryKey(), label: text("label") });
const later = pgTable("later", { id: text("id").primaryKey(), label: text("label") });

const noop = () => {};
const logger = { debug: noop, info: noop, warn: noop, error: noop, trace: noop, child: () => logger };
const common = {
  metrics: {
    incrementIndexingCacheRequests: noop,
    ponder_indexing_cache_query_duration: { observe: noop },
  },
  logger,
  // One byte: any row at all is more than the cache may hold.
  options: { indexingCacheMaxBytes: 1 },
};

/** A row cache over `names` and `later` whose database answers every query with no rows and counts them. */
function rowCacheWithCountingDatabase() {
  const cache = createIndexingCache({
    common,
    schemaBuild: { schema: { names, later } },
    crashRecoveryCheckpoint: undefined,
    eventCount: {},
    chainId: undefined,
  });
  const database = { queries: 0 };
  cache.qb = {
    $dialect: "postgres",
    wrap: async () => {
      database.queries++;
      return [];
    },
  };
  return { cache, database };
}

describe("Ponder's row cache evicting its tables", () => {
  it("keeps a table that holds no rows whole: its lookups need no database read", async () => {
    const { cache, database } = rowCacheWithCountingDatabase();
    cache.set({ table: names, key: { id: "a" }, row: { id: "a", label: "alice" }, isUpdate: false });
    await cache.flush();
    // Ponder evicts the tables read least first: `later`, never read, comes before `names`.
    expect(await cache.get({ table: names, key: { id: "z" } })).toBeNull();
    await cache.prefetch({ events: [] });

    database.queries = 0;
    expect(await cache.get({ table: later, key: { id: "b" } })).toBeNull();
    expect(database.queries, "lookups of the table that held no rows").toBe(0);
  });

  it("evicts a table that holds rows: its lookups are read from the database", async () => {
    const { cache, database } = rowCacheWithCountingDatabase();
    cache.set({ table: names, key: { id: "a" }, row: { id: "a", label: "alice" }, isUpdate: false });
    await cache.flush();
    await cache.prefetch({ events: [] });

    database.queries = 0;
    await cache.get({ table: names, key: { id: "c" } });
    expect(database.queries, "lookups of the evicted table").toBe(1);
  });
});
