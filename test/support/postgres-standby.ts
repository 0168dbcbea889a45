import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { findFreePort } from "../../scripts/lib/ports";

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
  stop(): void;
  start(): void;
}

export interface PrimaryAndStandby {
  primary: Server;
  standby: Server;
  /** Waits until the standby has replayed everything the primary has written so far. */
  caughtUp(timeoutMs?: number): Promise<void>;
  stop(): void;
}

const asPostgres = (command: string, args: string[]) =>
  execFileSync("runuser", ["-u", "postgres", "--", join(BIN, command), ...args], { stdio: "pipe" });

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
    stop: () => void asPostgres("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]),
    start: () => void asPostgres("pg_ctl", ["-D", data, "-l", logFile, "-o", options, "-w", "start"]),
  };
  return server;
}

/** A primary (with `database`, C collation) and a standby streaming from it, both started. */
export async function startPrimaryAndStandby(database: string): Promise<PrimaryAndStandby> {
  const dir = mkdtempSync(join(tmpdir(), "nameindex-standby-"));
  chmodSync(dir, 0o700);
  chownSync(dir, Number(execFileSync("id", ["-u", "postgres"]).toString()), 0);
  const primary = server(dir, await findFreePort(), "primary");
  const standby = server(dir, await findFreePort(), "standby");
  const started: Server[] = [];
  const stopAll = () => {
    for (const s of started.reverse()) {
      try {
        s.stop();
      } catch {
        // already stopped (a test stopped it and failed before starting it again)
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    asPostgres("initdb", ["-D", join(dir, "primary"), "-U", "postgres", "-A", "trust", "--locale=C", "-E", "UTF8"]);
    primary.start();
    started.push(primary);
    await query(primary.url("postgres"), `CREATE DATABASE "${database}" LOCALE 'C' TEMPLATE template0`);
    asPostgres(
      "pg_basebackup",
      ["-h", "127.0.0.1", "-p", String(primary.port), "-U", "postgres"].concat([
        "-D",
        join(dir, "standby"),
        "-R",
        "-X",
        "stream",
      ]),
    );
    standby.start();
    started.push(standby);
  } catch (error) {
    stopAll();
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
