import { execFile } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { promisify } from "node:util";
import pg from "pg";
import { SnapshotError } from "./errors";
import { runTool } from "./tools";

/*
 * A physical copy's server, run by the snapshot commands themselves: on the publisher's copy (to digest it and shed
 * its sync history) and on the operator's unpacked copy (to verify it before anyone starts it). It listens on a
 * Unix socket in a private directory only, with a configuration of its own (trust for local connections, nothing
 * else), so neither the copy's configuration nor the machine's other servers play a part. PostgreSQL refuses to run
 * as root: a root caller runs it, and every file it owns, as another OS user (`runuser`).
 */

/** The OS user a server and its data directory belong to. */
export interface ServerUser {
  uid: number;
  name: string;
}

/**
 * Who owns the data directory and runs its server: the caller, or for a root caller the owner of `directory`'s
 * parent when that is not root (Debian's /var/lib/postgresql belongs to `postgres`), else the `postgres` user.
 */
export async function serverUserFor(directory: string): Promise<ServerUser> {
  const uid = process.getuid?.() ?? 0;
  if (uid !== 0) return { uid, name: (await run("id", ["-un"])).trim() };
  const parent = join(directory, "..");
  const owner = existsSync(parent) ? statSync(parent).uid : 0;
  const id = owner !== 0 ? String(owner) : "postgres";
  try {
    return { uid: Number((await run("id", ["-u", id])).trim()), name: (await run("id", ["-un", id])).trim() };
  } catch {
    throw new SnapshotError(
      "target-unusable",
      "PostgreSQL does not run as root and this machine has no `postgres` user: run the command as the user that runs PostgreSQL",
    );
  }
}

/**
 * The directory of PostgreSQL's server programs for major version `major`: `bin` (`--pg-bin`, PG_BIN), or Debian's
 * /usr/lib/postgresql/<major>/bin; refused unless its `pg_ctl` is of that major version.
 */
export async function serverPrograms(major: number, bin = `/usr/lib/postgresql/${major}/bin`): Promise<string> {
  const version = await run(join(bin, "pg_ctl"), ["--version"]).catch(() => "");
  const found = Number(version.match(/\(PostgreSQL\) (\d+)/)?.[1] ?? Number.NaN);
  if (found !== major) {
    throw new SnapshotError(
      "payload",
      `this physical copy needs PostgreSQL ${major}'s server programs; ${join(bin, "pg_ctl")} ${
        Number.isNaN(found) ? "was not found" : `is of PostgreSQL ${found}`
      }: install postgresql-${major}, or name its bin directory with --pg-bin`,
    );
  }
  return bin;
}

/** Runs a program as `user`: through runuser when the caller is root and `user` is not (runTool otherwise). */
export function runAs(
  user: ServerUser,
  program: string,
  args: string[],
  options: { input?: Readable } = {},
): Promise<void> {
  return user.uid === (process.getuid?.() ?? 0)
    ? runTool(program, args, options)
    : runTool("runuser", ["-u", user.name, "--", program, ...args], options);
}

export interface ClusterServer {
  /** A client of `database` as `role`, connected over the server's private socket. */
  connect(database: string, role: string): Promise<pg.Client>;
  /** A clean shutdown (`pg_ctl stop -m fast`): the data directory is left consistent, with no WAL to replay. */
  stop(): Promise<void>;
}

/** Starts a server on `dataDirectory`, as `user`, listening on a private socket only (or also on 127.0.0.1:`tcpPort`). */
export async function startClusterServer(
  bin: string,
  dataDirectory: string,
  user: ServerUser,
  options: { tcpPort?: number } = {},
): Promise<ClusterServer> {
  const dir = mkdtempSync(join(tmpdir(), "nameindex-cluster-"));
  chownSync(dir, user.uid, -1);
  const config = join(dir, "postgresql.conf");
  writeFileSync(join(dir, "pg_hba.conf"), "local all all trust\nhost all all 127.0.0.1/32 trust\n");
  writeFileSync(join(dir, "pg_ident.conf"), "");
  writeFileSync(
    config,
    [
      `listen_addresses = '${options.tcpPort ? "127.0.0.1" : ""}'`,
      `port = ${options.tcpPort ?? 5432}`,
      `unix_socket_directories = '${dir}'`,
      `hba_file = '${join(dir, "pg_hba.conf")}'`,
      `ident_file = '${join(dir, "pg_ident.conf")}'`,
      // The publisher's VACUUM FULL of the index and the sync tables rewrites them whole: fewer checkpoints meanwhile,
      // and no WAL for the rewritten tables (a private copy has no standby to feed), more memory for their indexes.
      "max_wal_size = '4GB'",
      "wal_level = minimal",
      "max_wal_senders = 0",
      "maintenance_work_mem = '512MB'",
    ].join("\n"),
  );
  const log = join(dir, "server.log");
  const pgCtl = join(bin, "pg_ctl");
  try {
    await runAs(user, pgCtl, [
      "-D",
      dataDirectory,
      "-l",
      log,
      "-w",
      "-t",
      "3600",
      "-o",
      `-c config_file=${config}`,
      "start",
    ]);
  } catch (error) {
    const tail = existsSync(log) ? (await run("tail", ["-n", "5", log]).catch(() => "")).trim() : "";
    rmSync(dir, { recursive: true, force: true });
    throw new SnapshotError(
      "payload",
      `the copy's server did not start: ${(error as Error).message}${tail ? `; ${tail}` : ""}`,
    );
  }
  return {
    async connect(database, role) {
      const client = new pg.Client({ host: dir, port: options.tcpPort ?? 5432, database, user: role });
      await client.connect();
      return client;
    },
    async stop() {
      try {
        await runAs(user, pgCtl, ["-D", dataDirectory, "-m", "fast", "-w", "-t", "600", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** A program's stdout. */
export async function run(command: string, args: string[]): Promise<string> {
  return (await promisify(execFile)(command, args)).stdout;
}
