import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyPgliteSettings, PGLITE_SETTINGS } from "../../src/runtime/pglite-settings";
import { seedPgliteDirectory } from "../../src/runtime/pglite-template";

/*
 * The indexer's PGlite directory gets WAL settings for the host file system (src/runtime/pglite-settings.ts). What must
 * hold: PostgreSQL runs with them, an operator's other ALTER SYSTEM settings survive, and a transaction that committed
 * is still there after the process that committed it is killed (the reason the settings are safe).
 */

const root = resolve(import.meta.dirname, "../..");
let work: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "pglite-settings-test-"));
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

async function show(directory: string, names: string[]): Promise<Record<string, string>> {
  const pglite = new PGlite(directory);
  try {
    const shown: Record<string, string> = {};
    for (const name of names)
      shown[name] = (await pglite.query<Record<string, string>>(`SHOW ${name}`)).rows[0]![name]!;
    return shown;
  } finally {
    await pglite.close();
  }
}

describe("applyPgliteSettings", () => {
  it("makes PostgreSQL run with the settings, keeping an operator's own ALTER SYSTEM settings", async () => {
    const directory = join(work, "operator");
    await seedPgliteDirectory(directory, join(root, ".cache"));
    const before = await show(directory, Object.keys(PGLITE_SETTINGS));
    expect(before.wal_sync_method).toBe("open_datasync"); // PGlite's default, the one that syncs every WAL write

    const operator = new PGlite(directory);
    await operator.exec("ALTER SYSTEM SET checkpoint_timeout = '10min'");
    await operator.exec("ALTER SYSTEM SET wal_sync_method = 'open_datasync'");
    await operator.close();

    expect(applyPgliteSettings(directory)).toBe(true);
    expect(applyPgliteSettings(directory)).toBe(false); // already applied: the file is not rewritten
    const conf = readFileSync(join(directory, "postgresql.auto.conf"), "utf8");
    expect(conf.match(/wal_sync_method/g)).toHaveLength(1);

    const after = await show(directory, [...Object.keys(PGLITE_SETTINGS), "checkpoint_timeout"]);
    expect(after).toEqual({
      wal_sync_method: "fdatasync",
      full_page_writes: "off",
      wal_init_zero: "off",
      max_wal_size: "256MB",
      checkpoint_timeout: "10min",
    });
  });

  it("leaves a directory PGlite has not initialized alone", () => {
    expect(applyPgliteSettings(join(work, "absent"))).toBe(false);
    expect(applyPgliteSettings("memory://")).toBe(false);
  });

  it("loses no committed transaction when the process that committed it is killed", async () => {
    const directory = join(work, "killed");
    await seedPgliteDirectory(directory, join(root, ".cache"));
    applyPgliteSettings(directory);
    const setup = new PGlite(directory);
    await setup.exec("CREATE TABLE t (n int PRIMARY KEY, payload text)");
    await setup.close();

    // A child commits 200 transactions (enough WAL to fill several segments), says so, and is SIGKILLed: no close().
    const script = `
      import { PGlite } from "@electric-sql/pglite";
      const db = new PGlite(${JSON.stringify(directory)});
      for (let n = 0; n < 200; n++) await db.query("INSERT INTO t VALUES ($1, repeat('x', 20000))", [n]);
      process.stdout.write("committed\\n");
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      cwd: root,
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((resolvePromise, reject) => {
      child.stdout.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("committed")) resolvePromise();
      });
      child.once("exit", (code) => reject(new Error(`the child exited (${code}) before committing`)));
    });
    const exited = new Promise((resolvePromise) => child.once("exit", resolvePromise));
    child.kill("SIGKILL");
    await exited;

    const reopened = new PGlite(directory);
    try {
      const { rows } = await reopened.query<{ count: number; max: number }>(
        "SELECT count(*)::int AS count, max(n) AS max FROM t",
      );
      expect(rows[0]).toEqual({ count: 200, max: 199 });
    } finally {
      await reopened.close();
    }
  }, 120_000);
});
