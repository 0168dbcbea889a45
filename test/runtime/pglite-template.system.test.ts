import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedPgliteDirectory } from "../../src/runtime/pglite-template";
import { ponderPgliteVersion, ponderSyncMigrations } from "../../src/runtime/ponder-sync-migrations";
import { ponderCommon } from "../support/ponder-common";

/*
 * A new PGlite directory is seeded from a cached template that already holds Ponder's `ponder_sync` migrations. What
 * must hold: Ponder's own `migrateSync` (its createDatabase, unchanged) finds nothing to run on a seeded directory, and
 * the sync store it sees there is the one it builds itself on a directory PGlite just made.
 */

const root = resolve(import.meta.dirname, "../..");
const ponderFile = (path: string) => pathToFileURL(join(root, "node_modules/ponder/dist/esm", path)).href;

let work: string;
let cacheDir: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "pglite-template-test-"));
  cacheDir = join(work, "cache");
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

/** Ponder's `database.migrateSync()` on an open PGlite, through Ponder's own createDatabase. */
async function ponderMigrateSync(pglite: PGlite): Promise<void> {
  const { createDatabase } = await import(ponderFile("database/index.js"));
  const database = createDatabase({
    common: ponderCommon(),
    namespace: { schema: "app" },
    preBuild: { databaseConfig: { kind: "pglite_test", instance: pglite }, ordering: "omnichain" },
    schemaBuild: { schema: {}, statements: {} },
  });
  await database.migrateSync();
}

/** Everything about the `ponder_sync` schema a query could tell apart: columns, indexes, constraints, migrations. */
async function syncStoreShape(pglite: PGlite) {
  const rows = async (sql: string) => (await pglite.query(sql)).rows;
  return {
    columns: await rows(`
      SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns
      WHERE table_schema = 'ponder_sync' ORDER BY table_name, column_name`),
    indexes: await rows(
      `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'ponder_sync' ORDER BY indexname`,
    ),
    constraints: await rows(`
      SELECT conrelid::regclass::text AS rel, conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
      WHERE connamespace = 'ponder_sync'::regnamespace ORDER BY rel, conname`),
    functions: await rows(`
      SELECT proname, pg_get_functiondef(oid) AS def FROM pg_proc WHERE pronamespace = 'ponder_sync'::regnamespace
      ORDER BY proname`),
    migrations: (await rows(`SELECT name FROM ponder_sync.kysely_migration ORDER BY name`)).map(
      (r) => (r as { name: string }).name,
    ),
  };
}

async function withPglite<T>(dir: string, fn: (pglite: PGlite) => Promise<T>): Promise<T> {
  const pglite = new PGlite(dir);
  try {
    return await fn(pglite);
  } finally {
    await pglite.close();
  }
}

describe("seedPgliteDirectory", () => {
  it("seeds a sync store on which Ponder runs no migration, the same one Ponder builds on a fresh directory", async () => {
    const seeded = join(work, "seeded");
    expect(await seedPgliteDirectory(seeded, cacheDir)).toBe(true);

    const { before, after, seededShape } = await withPglite(seeded, async (pglite) => {
      const applied = async () => (await pglite.query(`SELECT name, timestamp FROM ponder_sync.kysely_migration`)).rows;
      const before = await applied();
      await ponderMigrateSync(pglite);
      return { before, after: await applied(), seededShape: await syncStoreShape(pglite) };
    });
    expect(before.length).toBeGreaterThan(20);
    expect(after).toEqual(before); // Nothing applied again, nothing added.
    // Only the database PGlite connects to: the other two would be copied into every new directory for nothing.
    const databases = await withPglite(
      seeded,
      async (pglite) =>
        (await pglite.query(`SELECT current_database() AS current, array_agg(datname) AS all FROM pg_database`))
          .rows[0],
    );
    expect(databases).toEqual({ current: "template1", all: ["template1"] });

    const fresh = join(work, "fresh");
    mkdirSync(fresh);
    const freshShape = await withPglite(fresh, async (pglite) => {
      await ponderMigrateSync(pglite);
      return syncStoreShape(pglite);
    });
    expect(freshShape.migrations.length).toBe(before.length);
    expect(seededShape).toEqual(freshShape);
  }, 180_000);

  it("names the template by the PGlite version and Ponder's migrations, so an older Ponder's template is never used", async () => {
    const migrations = ponderSyncMigrations(root);
    expect(migrations.version).toMatch(/^ponder-\d+\.\d+\.\d+-[0-9a-f]{12}$/);
    const templates = readdirSync(join(cacheDir, "pglite-template"));
    expect(templates).toEqual([`pglite-${ponderPgliteVersion(root)}-${migrations.version}-only-template1`]);

    // A template in the same cache under any other name (here: an older scheme, with all three databases) is ignored.
    const stale = join(cacheDir, "pglite-template", `pglite-${ponderPgliteVersion(root)}-${migrations.version}`);
    mkdirSync(stale);
    writeFileSync(join(stale, "PG_VERSION"), "15\n");
    writeFileSync(join(stale, "STALE_TEMPLATE"), "");
    const seeded = join(work, "seeded-again");
    expect(await seedPgliteDirectory(seeded, cacheDir)).toBe(true);
    expect(existsSync(join(seeded, "STALE_TEMPLATE"))).toBe(false);
    expect(existsSync(join(seeded, "PG_VERSION"))).toBe(true);
  });

  it("leaves a directory with data and memory:// alone", async () => {
    const used = join(work, "used");
    mkdirSync(used);
    writeFileSync(join(used, "something"), "");
    expect(await seedPgliteDirectory(used, cacheDir)).toBe(false);
    expect(readdirSync(used)).toEqual(["something"]);
    expect(await seedPgliteDirectory("memory://", cacheDir)).toBe(false);
  });
});
