import { execFile, execFileSync } from "node:child_process";
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { findFreePort } from "../scripts/lib/ports";

/*
 * A PostgreSQL primary and a hot standby of it, made as an operator makes one (initdb, then `pg_basebackup -R` of the
 * running primary), each on a free port in a temporary directory, run as the `postgres` OS user (PostgreSQL refuses to
 * run as root). Each server logs to its own file, which tests read for errors.
 */

const BIN = "/usr/lib/postgresql/15/bin";

export interface Server {
  port: number;
  /** A database on this server. */
  url(database: string): string;
  logFile: string;
  /** The server log's ERROR lines, each with the STATEMENT line that follows it. */
  errors(): string[];
  /** `pg_ctl stop -m fast`, resolved once the server is down (the event loop runs meanwhile: a test polls during it). */
  stop(): Promise<void>;
  /** `pg_ctl start`, resolved once the server accepts connections. */
  start(): Promise<void>;
}

export interface PrimaryAndStandby {
  primary: Server;
  standby: Server;
  /** Waits until the standby has replayed everything the primary has written so far. */
  caughtUp(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

const asPostgres = async (command: string, args: string[]) => {
  await promisify(execFile)("runuser", ["-u", "postgres", "--", join(BIN, command), ...args]);
};

function server(dir: string, port: number, name: string): Server {
  const data = join(dir, name);
  const logFile = join(dir, `${name}.log`);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`;
  const server: Server = {
    port,
    url: (database) => `postgresql://postgres@127.0.0.1:${port}/${database}`,
    logFile,
    errors() {
      const lines = readFileSync(logFile, "utf8").split("\n");
      return lines.flatMap((line, i) =>
        / (ERROR|PANIC): /.test(line)
          ? [`${line}${lines[i + 1]?.includes("STATEMENT:") ? `\n${lines[i + 1]}` : ""}`]
          : [],
      );
    },
    stop: () => asPostgres("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]),
    start: () => asPostgres("pg_ctl", ["-D", data, "-l", logFile, "-o", options, "-w", "start"]),
  };
  return server;
}

/** A private primary (with `database`, C collation), started, in its own temporary directory. */
export async function startPrimary(database: string): Promise<{ primary: Server; dir: string; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "nameindex-standby-"));
  chmodSync(dir, 0o700);
  chownSync(dir, Number(execFileSync("id", ["-u", "postgres"]).toString()), 0);
  const primary = server(dir, await findFreePort(), "primary");
  const stop = async () => {
    // Rejects when already stopped (a test stopped it and failed before starting it again).
    await primary.stop().catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await asPostgres("initdb", [
      "-D",
      join(dir, "primary"),
      "-U",
      "postgres",
      "-A",
      "trust",
      "--locale=C",
      "-E",
      "UTF8",
    ]);
    await primary.start();
    await query(primary.url("postgres"), `CREATE DATABASE "${database}" LOCALE 'C' TEMPLATE template0`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { primary, dir, stop };
}

/** A primary (with `database`, C collation) and a standby streaming from it, both started. */
export async function startPrimaryAndStandby(database: string): Promise<PrimaryAndStandby> {
  const { primary, dir, stop: stopPrimary } = await startPrimary(database);
  const standby = server(dir, await findFreePort(), "standby");
  let standbyStarted = false;
  const stopAll = async () => {
    if (standbyStarted) await standby.stop().catch(() => {});
    await stopPrimary();
  };
  try {
    // What an operator runs on the standby's host: a copy of the running primary that starts as its standby (-R).
    // `-c fast` asks the primary for an immediate checkpoint; the default (spread) paced it over minutes.
    const basebackup = ["-h", "127.0.0.1", "-p", String(primary.port), "-U", "postgres", "-D", join(dir, "standby")];
    await asPostgres("pg_basebackup", [...basebackup, "-R", "-X", "stream", "-c", "fast"]);
    await standby.start();
    standbyStarted = true;
  } catch (error) {
    await stopAll();
    throw error;
  }
  return {
    primary,
    standby,
    async caughtUp(timeoutMs = 30_000) {
      const [{ lsn }] = await query<{ lsn: string }>(
        primary.url("postgres"),
        "SELECT pg_current_wal_lsn()::text AS lsn",
      );
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        const [row] = await query<{ behind: boolean }>(
          standby.url("postgres"),
          `SELECT pg_last_wal_replay_lsn() < '${lsn}'::pg_lsn AS behind`,
        ).catch(() => [{ behind: true }]);
        if (row?.behind === false) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`the standby did not replay up to ${lsn} within ${timeoutMs} ms`);
    },
    stop: stopAll,
  };
}

async function query<T>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}
