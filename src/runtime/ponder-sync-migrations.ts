import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type { PGlite } from "@electric-sql/pglite";

/**
 * Ponder's own `ponder_sync` migrations (its sync store's schema), run the way `database.migrateSync()` runs them:
 * Ponder's migration provider and kysely's Migrator, with the `ponder_sync` schema plugin and migration table.
 * `version` names exactly which migrations these are (Ponder's version and a hash of the file that holds them, so a
 * patched or upgraded Ponder gets a new one), for caching their result.
 */
export interface PonderSyncMigrations {
  version: string;
  migrate(pglite: PGlite): Promise<void>;
}

interface PonderModules {
  buildMigrationProvider(logger: unknown): unknown;
  createPgliteKyselyDialect(instance: PGlite): unknown;
  createNoopLogger(): unknown;
  kysely: typeof import("kysely");
}

const MIGRATIONS_FILE = "dist/esm/sync-store/migrations.js";

/** Ponder's sync-store migrations as this project resolves Ponder (from `fromDir` up, as Node does). */
export function ponderSyncMigrations(fromDir: string): PonderSyncMigrations {
  const ponderDir = packageDir("ponder", fromDir);
  const version = (JSON.parse(readFileSync(join(ponderDir, "package.json"), "utf8")) as { version: string }).version;
  const hash = createHash("sha256")
    .update(readFileSync(join(ponderDir, MIGRATIONS_FILE)))
    .digest("hex")
    .slice(0, 12);
  return {
    version: `ponder-${version}-${hash}`,
    async migrate(pglite) {
      const ponder = await importPonderModules(ponderDir);
      const { Kysely, Migrator, WithSchemaPlugin } = ponder.kysely;
      const db = new Kysely<unknown>({
        dialect: ponder.createPgliteKyselyDialect(pglite) as never,
        plugins: [new WithSchemaPlugin("ponder_sync")],
      });
      const migrator = new Migrator({
        db,
        provider: ponder.buildMigrationProvider(ponder.createNoopLogger()) as never,
        migrationTableSchema: "ponder_sync",
      });
      const { error } = await migrator.migrateToLatest();
      if (error) throw error;
    },
  };
}

/** The PGlite version Ponder opens its directory with. */
export function ponderPgliteVersion(fromDir: string): string {
  const pgliteDir = packageDir("@electric-sql/pglite", packageDir("ponder", fromDir));
  return (JSON.parse(readFileSync(join(pgliteDir, "package.json"), "utf8")) as { version: string }).version;
}

async function importPonderModules(ponderDir: string): Promise<PonderModules> {
  const file = (path: string) => pathToFileURL(join(ponderDir, path)).href;
  const kyselyDir = packageDir("kysely", ponderDir);
  const [migrations, pglite, logger, kysely] = await Promise.all([
    import(file(MIGRATIONS_FILE)),
    import(file("dist/esm/utils/pglite.js")),
    import(file("dist/esm/internal/logger.js")),
    // The kysely Ponder itself imports (its ESM build), so the migrations' `sql` fragments and the Migrator agree.
    import(pathToFileURL(join(kyselyDir, "dist/esm/index.js")).href),
  ]);
  return {
    buildMigrationProvider: migrations.buildMigrationProvider,
    createPgliteKyselyDialect: pglite.createPgliteKyselyDialect,
    createNoopLogger: logger.createNoopLogger,
    kysely,
  };
}

/** Where Node finds package `name` for a module in `fromDir`: the nearest node_modules/<name> up the tree. */
function packageDir(name: string, fromDir: string): string {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(dir) === dir) throw new Error(`cannot find the package ${name} from ${fromDir}`);
  }
}
