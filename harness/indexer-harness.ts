import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { type PonderProcess, startPonder } from "../scripts/lib/ponder-process";
import { findFreePort } from "../scripts/lib/ports";
import type { DevnetWithLabels } from "./devnet-fixture";

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const LOCAL_POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/test";

export interface IndexerOptions {
  manifestPath: string;
  labelsServiceUrl: string;
  plugins: string[];
  database: "pglite" | "postgres";
  extraEnv?: Record<string, string>;
  /**
   * Index into this existing database (a new schema in it, which `stop()` leaves in place) or PGlite folder instead
   * of a fresh one: a second run then starts from the first one's RPC cache (ponder_sync).
   */
  reuse?: { databaseUrl?: string; pgliteDirectory?: string };
  /** Run `ponder start` from this copy of the project (bench:patch-ab's variants with other dependency patches). */
  projectRoot?: string;
  /** Ponder's root inside that copy when it is not the copy's root (an earlier commit's tree with ponder/). */
  ponderRoot?: string;
  /** Index into this schema instead of a new random one (with `reuse`: a schema restored from a snapshot). */
  schema?: string;
}

export interface RunningIndexer {
  url: string;
  schema: string;
  process: PonderProcess;
  logFile: string;
  env: NodeJS.ProcessEnv;
  /** The PGlite folder (PGlite runs only), to dump it once the indexer is stopped. */
  pgliteDirectory?: string;
  /** Starts an API-only replica (`ponder serve`) over the same PostgreSQL schema, with `extraEnv` added (RPC URLs). */
  startReplica(extraEnv?: Record<string, string>): Promise<{ url: string; stop(): Promise<void> }>;
  /** SIGKILLs `ponder start` (a crash: no shutdown hooks run) and waits for it to exit. */
  kill(): Promise<void>;
  /**
   * Starts `ponder start` again on the same database, PGlite folder and schema (a new port; `url` and `process`
   * then refer to the new process). The previous process must have exited.
   */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `startIndexer`'s options for a devnet and its own label service, the usual case (tests of faults pass another
 * manifest or a proxied label service to `startIndexer` themselves).
 */
export function indexerOptionsFor(
  env: DevnetWithLabels,
  options: Omit<IndexerOptions, "manifestPath" | "labelsServiceUrl">,
): IndexerOptions {
  return { manifestPath: env.devnet.manifestPath, labelsServiceUrl: env.labelsUrl, ...options };
}

/** `ponder start` on a devnet, on a free port and a fresh database (PGlite folder or PostgreSQL schema). */
export async function startIndexer(options: IndexerOptions): Promise<RunningIndexer> {
  const workDir = mkdtempSync(join(tmpdir(), "nameindex-indexer-"));
  const schema = options.schema ?? `t_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6).toString(36)}`;
  const port = await findFreePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NAMESPACE: "devnet",
    DEVNET_MANIFEST: options.manifestPath,
    PLUGINS: options.plugins.join(","),
    LABELS_SERVICE_URL: options.labelsServiceUrl,
    DATABASE_SCHEMA: schema,
    PORT: String(port),
    ...options.extraEnv,
  };
  delete env.LABELS_DB;
  // A database per run, not only a schema: Ponder's sync store (ponder_sync) is keyed by chain id and block, and every
  // devnet reuses chain ids and contract addresses, so a shared database would mix an earlier devnet's logs in.
  const database =
    options.database === "postgres" && !options.reuse?.databaseUrl ? await createDatabase(schema) : undefined;
  if (options.database === "postgres") env.DATABASE_URL = options.reuse?.databaseUrl ?? database;
  else {
    delete env.DATABASE_URL;
    env.PGLITE_DIRECTORY = options.reuse?.pgliteDirectory ?? join(workDir, "pglite");
  }
  const logFile = join(workDir, "indexer.log");
  const root = options.projectRoot ?? projectRoot;
  const { ponderRoot } = options;
  let ponder = startPonder({ projectRoot: root, ponderRoot, command: "start", port, schema, env, logFile });
  const replicas: { stop(): Promise<void> }[] = [];
  const running: RunningIndexer = {
    url: ponder.url,
    schema,
    process: ponder,
    logFile,
    env,
    pgliteDirectory: env.PGLITE_DIRECTORY,
    async startReplica(extraEnv = {}) {
      if (options.database !== "postgres") throw new Error("replicas need PostgreSQL");
      const replicaPort = await findFreePort();
      const replica = startPonder({
        projectRoot: root,
        ponderRoot,
        command: "serve",
        port: replicaPort,
        schema,
        env: { ...env, ...extraEnv, PORT: String(replicaPort), INDEXER_URL: running.url },
        logFile: join(workDir, `replica-${replicaPort}.log`),
      });
      replicas.push(replica);
      await waitFor(
        async () => (await fetch(`${replica.url}/health`).catch(() => undefined))?.status === 200,
        120_000,
        "replica /health",
      );
      return { url: replica.url, stop: () => replica.stop() };
    },
    async kill() {
      await ponder.kill();
    },
    async restart() {
      if (ponder.child.exitCode === null && ponder.child.signalCode === null)
        throw new Error("restart() needs the previous ponder to have exited");
      const nextPort = await findFreePort();
      env.PORT = String(nextPort);
      ponder = startPonder({ projectRoot: root, ponderRoot, command: "start", port: nextPort, schema, env, logFile });
      running.url = ponder.url;
      running.process = ponder;
    },
    async stop() {
      for (const r of replicas) await r.stop();
      await ponder.stop();
      if (database) await dropDatabase(schema);
      rmSync(workDir, { recursive: true, force: true });
    },
  };
  return running;
}

/** A client on the server of `serverUrl` (any database on it), connected to its `postgres` database. */
async function withAdminClient<T>(serverUrl: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl(serverUrl, "postgres") });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** `serverUrl` with its database replaced by `name`. */
function databaseUrl(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh database on the local server (or the server of `serverUrl`); returns its connection string. */
export async function createDatabase(name: string, serverUrl = LOCAL_POSTGRES_URL): Promise<string> {
  await withAdminClient(serverUrl, (client) => client.query(`create database "${name}"`));
  return databaseUrl(serverUrl, name);
}

export async function dropDatabase(name: string, serverUrl = LOCAL_POSTGRES_URL): Promise<void> {
  await withAdminClient(serverUrl, (client) => client.query(`drop database if exists "${name}" with (force)`));
}

/** The exit code of `ponder start` once it exits on its own (a refused start); throws if it is still running then. */
export async function exitCodeOf(indexer: RunningIndexer, timeoutMs: number): Promise<number | null> {
  const child = indexer.process.child;
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  return await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`ponder start did not exit within ${timeoutMs} ms (it resumed?)`)),
      timeoutMs,
    );
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** Polls `check` every `pollMs` (100 ms: the checks are a local request or file read) until it holds, or throws. */
export async function waitFor(
  check: () => Promise<boolean>,
  timeoutMs: number,
  what: string,
  pollMs = 100,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, pollMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/**
 * Waits for `/ready`, then until `/status` (the chains' checkpoints) has not changed for `stableMs`, and returns it.
 * Not "every chain at its head": with omnichain ordering Ponder indexes a realtime block only once every chain has a
 * block at least as late, so with no new blocks the chains stop at the earliest head timestamp, some time after
 * `/ready`.
 */
export async function settledStatus<T = unknown>(
  indexer: RunningIndexer,
  stableMs: number,
  timeoutMs: number,
): Promise<T> {
  await indexer.process.ready();
  let last = "";
  let stableSince = Date.now();
  await waitFor(
    async () => {
      const text = await fetch(`${indexer.url}/status`).then((r) => (r.ok ? r.text() : ""));
      if (text !== last) [last, stableSince] = [text, Date.now()];
      return text !== "" && Date.now() - stableSince > stableMs;
    },
    timeoutMs,
    "checkpoints settled",
  );
  return JSON.parse(last) as T;
}

export async function getJson<T = unknown>(url: string): Promise<{ status: number; body: T }> {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as T };
}
