import { existsSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type SQL, sql } from "drizzle-orm";

/*
 * Every place the app meets Ponder outside its public API: the hooks our patches add (patches/, docs/patches.md) and
 * the unpatched internal globals the app reads. Nothing else in src/ names these symbols, globals or meta fields,
 * so an upgrade that drops a patch removes its hook here and the compiler lists the uses to change
 * (docs/maintainers.md, "Ponder hooks the app relies on"). `PONDER_SYNC_INTERVAL_MAX_LOGS` (patch 024) is an
 * environment variable Ponder reads itself; src/config/env-schema.ts validates it.
 */

const INSERT_ONLY = Symbol.for("nameindex:insertOnly");

/**
 * Marks a table (ponder.schema.ts) whose rows are inserted under keys unique by construction: patch
 * insert-only-tables-skip-pglite-read then inserts into it without reading the key first on PGlite too, as on
 * PostgreSQL, and the write-behind store takes its rows during the backfill. A key inserted twice fails at the flush.
 */
export function markInsertOnly<T extends object>(table: T): T {
  Object.defineProperty(table, INSERT_ONLY, { value: true });
  return table;
}

export function isMarkedInsertOnly(table: unknown): boolean {
  return typeof table === "object" && table !== null && (table as { [INSERT_ONLY]?: boolean })[INSERT_ONLY] === true;
}

/**
 * Starts each chain's RPC queue at `rps` requests per second instead of Ponder's 1,000 (patch createRpc-initial-rps,
 * read from the environment when Ponder creates the queue): set by ponder.config.ts from RPC_REQUESTS_PER_SECOND.
 */
export function setRpcInitialRps(rps: number): void {
  process.env.NAMEINDEX_RPC_INITIAL_RPS = String(rps);
}

/**
 * A Node.js request listener that Ponder's server runs before its Hono app, returning true for the requests it answered
 * (patch createServer-node-fast-path). Without the patch nothing calls it and every request takes the Hono route.
 */
export type NodeFastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

const NODE_FAST_PATH = Symbol.for("ponder.api.nodeFastPath");

/** Marks `app` (the API's default export) with its fast path. */
export function withNodeFastPath<T extends object>(app: T, fastPath: NodeFastPath): T {
  Object.defineProperty(app, NODE_FAST_PATH, { value: fastPath });
  return app;
}

/** The fast path of an app, if it has one. */
export function nodeFastPathOf(app: object): NodeFastPath | undefined {
  return (app as { [NODE_FAST_PATH]?: NodeFastPath })[NODE_FAST_PATH];
}

/** The part of Ponder's event a row-key derivation reads: the chain, the decoded arguments, the log and its block. */
export interface DerivationEvent {
  chain: { id: number };
  event: { args?: unknown; log?: { address: string; logIndex?: number }; block?: { number: bigint } };
}
export type KeyDerivation = (event: DerivationEvent) => string | undefined;

declare global {
  // Read by the row cache's prefetch (patch recordProfilePattern-derived-keys, indexing-store/profile.js).
  var PONDER_KEY_DERIVATIONS: Record<string, KeyDerivation> | undefined;
}

/** The row cache's table of derived keys, by name: what a handler puts here, Ponder's prefetch predicts. */
export function ponderKeyDerivations(): Record<string, KeyDerivation> {
  return (globalThis.PONDER_KEY_DERIVATIONS ??= {});
}

/**
 * Marks an error after which the index must not be resumed: when it stops `ponder start`, patch
 * createDatabase-refuse-restart records it, and a later `ponder start` on the same schema refuses to run.
 */
export const REFUSES_RESTART = Symbol.for("nameindex.refusesRestart");

/**
 * The error that stopped `ponder start` on this schema, or NULL: patch createDatabase-record-fatal-error writes it into
 * Ponder's meta row when the app unlocks the schema, and the next start's meta value drops it.
 */
export const INDEXING_ERROR_SQL = sql`(SELECT value->>'indexing_error' FROM _ponder_meta WHERE key = 'app')`;

const PGLITE_INSTANCE = Symbol.for("nameindex.pgliteInstance");

/**
 * The PGlite instance behind `ponder:api`'s client: patch createQB-pglite-transactions hands the API a gate whose reads
 * wait for the indexer's open transaction, and the gate names the instance. Without the gate, the client itself.
 */
export function pgliteBehindReadGate<T extends object>(client: T): T {
  return (client as T & { [PGLITE_INSTANCE]?: T })[PGLITE_INSTANCE] ?? client;
}

/**
 * The part of Ponder's `globalThis.PONDER_COMMON` the app reads (set by Ponder's build in the process that runs it):
 * the command (ponder.config.ts, the API), metrics and the API's shutdown.
 */
export interface PonderCommon {
  options?: { command?: string };
  /** prom-client metrics by name; callers cast the one they read. */
  metrics?: Record<string, unknown>;
  apiShutdown?: { add(callback: () => unknown): void };
}

/** Ponder's process-wide state, an unpatched internal (check it on every upgrade); undefined outside Ponder. */
export function ponderCommon(): PonderCommon | undefined {
  return (globalThis as { PONDER_COMMON?: PonderCommon }).PONDER_COMMON;
}

/**
 * The database schema Ponder writes and its API reads: `--schema`, else `DATABASE_SCHEMA` (`ponder dev`: else
 * "public"). Ponder sets `globalThis.PONDER_NAMESPACE_BUILD` before it executes ponder.config.ts, an unpatched internal
 * (check it on every upgrade); undefined outside Ponder.
 */
export function ponderDatabaseSchema(): string | undefined {
  return (globalThis as { PONDER_NAMESPACE_BUILD?: { schema?: string } }).PONDER_NAMESPACE_BUILD?.schema;
}

/** The part of Ponder's database handle that background work beside indexing reads: its read-only drizzle client. */
export interface PonderDatabaseHandle {
  readonlyQB: { raw: { execute(query: SQL): Promise<unknown> } };
}

/**
 * Ponder's database, once `ponder start` has migrated the schema: Ponder's build sets `globalThis.PONDER_DATABASE`
 * just before it executes the API files, after crash recovery and before indexing starts (an unpatched internal:
 * check it on every upgrade); undefined until then and outside Ponder.
 */
export function ponderDatabase(): PonderDatabaseHandle | undefined {
  return (globalThis as { PONDER_DATABASE?: PonderDatabaseHandle }).PONDER_DATABASE;
}

/** The part of Ponder's query builder for a batch's transaction that a COPY needs (its dialect and driver client). */
export interface PonderBatchTransaction {
  $dialect: "postgres" | "pglite";
  // biome-ignore lint/suspicious/noExplicitAny: pg's PoolClient or PGlite's transaction, by dialect.
  $client: any;
  /** Ponder's query builder: runs `query` on its drizzle client (the transaction's), with its error mapping. */
  // biome-ignore lint/suspicious/noExplicitAny: Ponder's drizzle database, by dialect.
  wrap?<T>(query: (db: any) => Promise<T> | T): Promise<T>;
}

/** Ponder's query builder for the app's schema on its pool (`database.userQB`): a query on any free connection. */
export interface PonderPoolQuery {
  // biome-ignore lint/suspicious/noExplicitAny: Ponder's drizzle database, by dialect.
  wrap<T>(query: (db: any) => Promise<T> | T): Promise<T>;
}

/** The part of Ponder's event (runtime/events.js) a backfill batch hands over: its callback's name and its values. */
export interface PonderBatchEvent extends DerivationEvent {
  type: string;
  checkpoint: string;
  eventCallback: { name: string };
}

/** One chain's checkpoint as Ponder's backfill loop writes it at the end of a batch (`result.result`'s entries). */
export interface PonderChainCheckpoint {
  chainId: number;
  checkpoint: string;
}

/** What the backfill's end hook needs to write a batch's checkpoints as Ponder does (`runtime/omnichain.js`). */
export interface PonderBackfillEnd {
  /** Ponder's query builder for the app's schema (`database.userQB`): `transaction(fn)` runs `fn` in one. */
  // biome-ignore lint/suspicious/noExplicitAny: Ponder's query builder.
  qb: { transaction(fn: (tx: PonderBatchTransaction) => Promise<void>): Promise<any> };
  /** Ponder's `_ponder_checkpoint` table (drizzle), keyed by chain name. */
  // biome-ignore lint/suspicious/noExplicitAny: Ponder's drizzle table.
  checkpointTable: any;
  chains: readonly { id: number; name: string }[];
}

/**
 * What patch omnichain-backfill-batch-hooks calls around each batch of the omnichain backfill: `begin(tx, events,
 * pool)` in the batch's transaction before its handlers run, awaited (a batch Ponder runs again after a failure begins
 * again); `flush(tx)` after Ponder's own flush, in the batch's transaction; `checkpoints(results)` for the checkpoints
 * the transaction commits (Ponder's own for the batch, or an earlier batch's whose rows the transaction writes);
 * `abort()` first in the batch's catch block (a failed handler, or flush); and `end(…)` once after the last batch, before Ponder builds its indexes. Nothing calls them at setup, in realtime or in
 * the other orderings; without the patch, never.
 */
export interface BackfillBatchHooks {
  begin(
    tx?: PonderBatchTransaction,
    events?: readonly PonderBatchEvent[],
    pool?: PonderPoolQuery,
  ): Promise<void> | void;
  flush(tx: PonderBatchTransaction): Promise<void>;
  checkpoints<T extends PonderChainCheckpoint>(results: T[]): T[];
  /** The batch failed: whatever the app still sends on its transaction ends before Ponder rolls it back. */
  abort(): Promise<void>;
  end(ponder: PonderBackfillEnd): Promise<void>;
}

declare global {
  var NAMEINDEX_BACKFILL_BATCH: BackfillBatchHooks | undefined;
}

/**
 * A row-key pattern of Ponder's row cache: how a key was made from an event's values (Ponder's
 * indexing-store/profile.js, with patch recordProfilePattern-derived-keys), so that a later event's key is predicted.
 */
export type PonderKeyPattern = Record<string, unknown>;

/** Ponder's row-cache profiling functions, an unpatched internal module (check it on every upgrade). */
export interface PonderProfile {
  /** The pattern that explains `key` from `event`, trying `hints` first; undefined if none does. */
  recordProfilePattern(
    event: PonderBatchEvent,
    table: unknown,
    key: Record<string, unknown>,
    hints: PonderKeyPattern[],
    primaryKeys: Map<unknown, [string, unknown][]>,
  ): PonderKeyPattern | undefined;
  /** The key `pattern` makes from `event` (a value undefined where it does not apply). */
  recoverProfilePattern(pattern: PonderKeyPattern, event: PonderBatchEvent): Record<string, unknown>;
  getProfilePatternKey(pattern: PonderKeyPattern): string;
}

let profile: Promise<PonderProfile | undefined> | undefined;

/**
 * Ponder's profile.js, loaded by its path (the package exports only its entry point), once; undefined where Ponder is
 * not installed beside the app.
 */
export function ponderProfile(): Promise<PonderProfile | undefined> {
  profile ??= (async () => {
    for (const dir of createRequire(join(process.cwd(), "index.js")).resolve.paths("ponder") ?? []) {
      const file = join(dir, "ponder", "dist", "esm", "indexing-store", "profile.js");
      if (existsSync(file)) return (await import(pathToFileURL(file).href)) as PonderProfile;
    }
    return undefined;
  })();
  return profile;
}

export function setBackfillBatchHooks(hooks: BackfillBatchHooks | undefined): void {
  globalThis.NAMEINDEX_BACKFILL_BATCH = hooks;
}

export function backfillBatchHooks(): BackfillBatchHooks | undefined {
  return globalThis.NAMEINDEX_BACKFILL_BATCH;
}
