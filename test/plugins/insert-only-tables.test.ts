import { getTableName } from "drizzle-orm";
import { onchainTable } from "ponder";
import { describe, expect, it } from "vitest";
// biome-ignore format: on one line, so that the @ts-expect-error under this comment covers the module path
// @ts-expect-error Ponder's built module, as patched (patches/ponder+0.17.7+031+insert-only-tables-skip-pglite-read.patch)
import { createIndexingStore } from "../../node_modules/ponder/dist/esm/indexing-store/index.js";
import * as schema from "../../ponder.schema";
import { isMarkedInsertOnly, markInsertOnly } from "../../src/runtime/ponder-hooks";

/*
 * Patch 031: on PGlite Ponder reads a key before inserting it, to raise a unique-key error early; once the row cache
 * has evicted a table, that read is a database query per inserted row. The tables marked `insertOnly` in
 * ponder.schema.ts (the entity history's, and the rows written once per log) are inserted into under keys unique by
 * construction: their inserts skip the read, on PGlite as on PostgreSQL; every other table's keep it.
 */

const marked = markInsertOnly(onchainTable("marked", (t) => ({ id: t.text().primaryKey(), value: t.text() })));
const plain = onchainTable("plain", (t) => ({ id: t.text().primaryKey(), value: t.text() }));

/** Ponder's indexing store over a row cache that counts its lookups (each a database read once a table is evicted). */
function storeOn(dialect: "pglite" | "postgres") {
  const lookups = new Map<string, number>();
  const noop = () => {};
  const store = createIndexingStore({
    common: { metrics: { incrementIndexingStoreQueries: noop } },
    schemaBuild: { schema: { marked, plain } },
    indexingCache: {
      get: async ({ table }: { table: object }) => {
        const name = getTableName(table as never);
        lookups.set(name, (lookups.get(name) ?? 0) + 1);
        return null;
      },
      set: ({ row }: { row: unknown }) => row,
    },
    indexingErrorHandler: { setRetryableError: noop },
    // Omnichain ordering (as nameindex runs): no chain to check rows against.
    chainId: undefined,
  });
  store.qb = { $dialect: dialect };
  return { db: store.db, lookups };
}

describe("insert-only tables (patch 031)", () => {
  it("are inserted without a lookup on PGlite, one row or many; other tables are looked up first", async () => {
    const { db, lookups } = storeOn("pglite");
    await db.insert(marked).values({ id: "a", value: "1" });
    await db.insert(marked).values([
      { id: "b", value: "2" },
      { id: "c", value: "3" },
    ]);
    await db.insert(plain).values({ id: "a", value: "1" });
    await db.insert(plain).values([
      { id: "b", value: "2" },
      { id: "c", value: "3" },
    ]);
    expect(Object.fromEntries(lookups)).toEqual({ plain: 3 });
  });

  it("change nothing on PostgreSQL, whose inserts never look up", async () => {
    const { db, lookups } = storeOn("postgres");
    await db.insert(marked).values({ id: "a", value: "1" });
    await db.insert(plain).values({ id: "a", value: "1" });
    expect(lookups.size).toBe(0);
  });

  it("are the tables whose every key is written once: the entity history's and the rows of one log, and only those", () => {
    const flagged = Object.entries(schema)
      .filter(([, table]) => isMarkedInsertOnly(table))
      .map(([name]) => name)
      .sort();
    const history = [
      "accountHistory",
      "domainHistory",
      "registrationHistory",
      "resolverHistory",
      "wrappedDomainHistory",
    ];
    // A row per handled log, under the log's id (or its chain, block and index), written by that log's handler.
    const perLog = [
      "abiChanged",
      "addrChanged",
      "authorisationChanged",
      "contenthashChanged",
      "expiryExtended",
      "fusesSet",
      "indexedLog",
      "interfaceChanged",
      "multicoinAddrChanged",
      "nameChanged",
      "nameRegistered",
      "nameRenewed",
      "nameTransferred",
      "nameUnwrapped",
      "nameWrapped",
      "newOwner",
      "newResolver",
      "newTTL",
      "pubkeyChanged",
      "registrarAction",
      "textChanged",
      "transfer",
      "versionChanged",
      "wrappedTransfer",
    ];
    expect(flagged).toEqual([...history, ...perLog].sort());
  });
});
