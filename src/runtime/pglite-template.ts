import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { type PonderSyncMigrations, ponderPgliteVersion, ponderSyncMigrations } from "./ponder-sync-migrations";

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * PGlite runs initdb when it opens an empty directory, and on a host directory that is the slowest part of
 * `ponder start`'s start-up: initdb writes ~1,000 files (27 MB) a page at a time through PGlite's Node file system
 * (a host open/write/close per page), ~2–3 s of CPU and 6–10 s of wall time on a loaded 2-core machine. Ponder then
 * runs its 27 `ponder_sync` migrations on it (~1 s of CPU). A data directory is relocatable, so this copies one made
 * earlier instead (a copy of ~430 files, 0.2–0.5 s): the template is made once per PGlite version and Ponder sync-store migrations under
 * `.cache/pglite-template/`, by PGlite itself with the same (default) options Ponder opens its directory with, migrated
 * by Ponder's own migration code (src/runtime/ponder-sync-migrations.ts; Ponder finds them applied and runs none), and
 * closed cleanly. Another Ponder version or a changed migrations file names another template, so one made by an older
 * Ponder is never used. Only an absent or empty directory is seeded; a directory with data is left alone, and so is
 * `memory://`. Both the template and the seeded directory are written under a temporary name and renamed into place,
 * so a crash or a concurrent start never leaves a half-copied directory where PGlite would open it.
 */
export async function seedPgliteDirectory(directory: string, cacheDir = join(projectRoot, ".cache")): Promise<boolean> {
  if (directory === "memory://") return false;
  const target = resolve(directory);
  if (existsSync(target) && readdirSync(target).length > 0) return false;
  const migrations = ponderSyncMigrations(projectRoot);
  const template = join(
    cacheDir,
    "pglite-template",
    `pglite-${ponderPgliteVersion(projectRoot)}-${migrations.version}-${TEMPLATE_LAYOUT}`,
  );
  if (!existsSync(join(template, "PG_VERSION"))) await makeTemplate(template, migrations);
  const staging = `${target}.seed-${process.pid}-${Date.now().toString(36)}`;
  mkdirSync(dirname(target), { recursive: true });
  cpSync(template, staging, { recursive: true });
  try {
    if (existsSync(target)) rmdirSync(target); // Empty (rmdir refuses a directory that is not).
    renameSync(staging, target);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (existsSync(join(target, "PG_VERSION"))) return false; // Another process seeded it first.
    throw error;
  }
  return true;
}

/** Names what `makeTemplate` does beyond PGlite and the migrations, so a template made differently is never used. */
const TEMPLATE_LAYOUT = "only-template1";

async function makeTemplate(template: string, migrations: PonderSyncMigrations): Promise<void> {
  const staging = `${template}.tmp-${process.pid}-${Date.now().toString(36)}`;
  mkdirSync(staging, { recursive: true });
  const pglite = new PGlite(staging);
  try {
    await migrations.migrate(pglite);
    // PGlite (and so Ponder) only ever connects to template1. The `postgres` and `template0` databases initdb makes
    // are 600 of the template's 1,000 files, and creating files is most of a copy's cost (~0.5 s of every new start).
    await pglite.exec("DROP DATABASE postgres");
    await pglite.exec("ALTER DATABASE template0 IS_TEMPLATE false");
    await pglite.exec("DROP DATABASE template0");
    await pglite.close();
  } catch (error) {
    await pglite.close().catch(() => {});
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  try {
    renameSync(staging, template);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(join(template, "PG_VERSION"))) throw error; // Not merely another process making it too.
  }
}
