import type { Context } from "ponder:registry";
import { and, eq, getTableColumns, getTableName, gte, lte } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { DISCARD, discardRow } from "../discard";
import { insertBuilders, PlainInsert } from "../plain-insert";
import { ENTITY_HISTORIES } from "./tables";
import {
  type BlockPosition,
  firstVersionOf,
  lastVersionOf,
  MAX_WRITES_PER_EVENT,
  VALID_TO_PENDING,
  versionOf,
} from "./version";

/*
 * Keeps the history of the subgraph's mutable entities (ponder.schema.ts, "History of the subgraph's mutable
 * entities"): the store a handler gets writes, beside each insert, update or delete of a tracked table, the row as it
 * now stands into `<table>_history`, under the write's version (src/lib/entity-history/version.ts). Handlers stay as they
 * are; one wrapper around `context.db` (register.ts) sees every write, whichever plugin makes it.
 *
 * A write that changes nothing (an insert that met its row under `onConflictDoNothing`, a delete of no row) leaves no
 * version, and an entity written several times in one handler run leaves one (`withEntityHistory`). Nor does a block
 * leave more than one per entity: a query reads the state at the end of a block, never between two of its events, so
 * a later run in the same block rewrites the block's version in place (`BlockVersions`).
 */

type Db = Context["db"];
type Row = Record<string, unknown>;

/** The main table's columns that its history keeps (the subgraph's; the Omnigraph's order keys are not history). */
const KEPT = new Map<PgTable, string[]>(
  [...ENTITY_HISTORIES].map(([table, history]) => {
    const kept = new Set(Object.keys(getTableColumns(history)));
    return [table, Object.keys(getTableColumns(table)).filter((key) => kept.has(key))];
  }),
);

/** Where the writes of one handler run fall in the version order, and how many it has made. */
export interface WritePosition {
  block: BlockPosition;
  /** The block's identity (chain and hash): a block's versions are one per entity. Absent at setup. */
  blockKey?: string;
  logIndex: number;
  /** The next write's number within the log (shared by every handler of the log). */
  next(): number;
}

/**
 * Ponder hands the handlers of one log (one per plugin indexing its contract) the same `log` object, one after
 * another: their writes number on from each other, so two handlers' versions never share a key. The log's first
 * handler coming again is Ponder re-running a failed batch: it numbers from 0 again, as the first time.
 */
interface LogWrites {
  log: object;
  firstHandler: string;
  /** The log's position, handed to each of its handlers: made once per log, not per handler run. */
  position: WritePosition;
}
let current: LogWrites | undefined;
/** The last block's key: a block's events come one after another, so its key is made once. */
let lastBlock = { chainId: 0, hash: "", key: "" };

export function logWritePosition(
  handler: string,
  chainId: number,
  event: { log: object & { logIndex: number }; block: { number: bigint; timestamp: bigint; hash: string } },
): WritePosition {
  if (!current || current.log !== event.log || current.firstHandler === handler) {
    if (lastBlock.chainId !== chainId || lastBlock.hash !== event.block.hash)
      lastBlock = { chainId, hash: event.block.hash, key: `${chainId}:${event.block.hash}` };
    let count = 0;
    current = {
      log: event.log,
      firstHandler: handler,
      position: {
        block: { timestamp: event.block.timestamp, chainId, blockNumber: event.block.number },
        blockKey: lastBlock.key,
        logIndex: event.log.logIndex,
        next: () => count++,
      },
    };
  }
  return current.position;
}

/**
 * The version each entity got in the block being indexed: Ponder hands over a block's events one after another (its
 * omnichain order never interleaves another block between them), so one block's entries are kept at a time. A later
 * write of the entity in the block upserts that version: its row is in Ponder's row cache (written moments ago),
 * and after a failed batch's re-run, when the row may be gone, the upsert inserts it again. A reorg replays the
 * height with another hash, so the entries never outlive their block.
 *
 * A process's first block on each chain may be one a previous process began: Ponder's checkpoint can fall between two
 * events of a block (a batch ends there), and a restart resumes after it. Versions that process wrote are committed but
 * not in memory, so in that block an entity's version is looked up in the database before a new one is written.
 */
const blockVersions = { block: "", versions: new Map<string, bigint>(), resumable: false };
const chainsBegun = new Set<number>();

function versionsOfBlock(blockKey: string, chainId: number): typeof blockVersions {
  if (blockVersions.block !== blockKey) {
    blockVersions.block = blockKey;
    blockVersions.versions = new Map();
    blockVersions.resumable = !chainsBegun.has(chainId);
    chainsBegun.add(chainId);
  }
  return blockVersions;
}

/** The version an entity already has in `block`, written before this process started, if any. */
async function committedVersionInBlock(db: Db, history: PgTable, id: unknown, block: BlockPosition) {
  // biome-ignore lint/suspicious/noExplicitAny: one lookup for five tables, each keyed by (id, version).
  const table = history as any;
  const [found] = await db.sql
    .select({ version: table.version })
    .from(table)
    .where(and(eq(table.id, id), gte(table.version, firstVersionOf(block)), lte(table.version, lastVersionOf(block))))
    .limit(1);
  return found?.version as bigint | undefined;
}

/** Setup handlers write before any block: version 0 onward, numbered across every setup handler of the process. */
let setupWrites = 0;
export function setupWritePosition(chainId: number): WritePosition {
  return {
    block: { timestamp: 0n, chainId, blockNumber: 0n },
    logIndex: 0,
    next: () => setupWrites++,
  };
}

/**
 * A tracked entity a handler run wrote: its state after the run's last write (kept columns, copied then) or its
 * deletion, and its state before the run's first write where the store showed it (null: it did not exist).
 */
interface Pending {
  table: PgTable;
  row: Row;
  deleted: boolean;
  before: Row | null | undefined;
}

function keptOf(table: PgTable, row: Row): Row {
  const kept: Row = { id: row.id };
  for (const key of KEPT.get(table)!) kept[key] = row[key] ?? null;
  return kept;
}

const sameValue = (a: unknown, b: unknown): boolean =>
  Array.isArray(a) && Array.isArray(b) ? a.length === b.length && a.every((v, i) => sameValue(v, b[i])) : a === b;

/** Whether the run left the entity as it found it: then its last version already holds this state. */
function unchanged(entry: Pending): boolean {
  if (entry.before === undefined) return false;
  if (entry.before === null || entry.deleted) return entry.before === null && entry.deleted;
  const before = entry.before;
  return Object.keys(entry.row).every((key) => sameValue(entry.row[key], before[key]));
}

function versionRow(pending: Pending, position: WritePosition): Row {
  const write = position.next();
  if (write >= MAX_WRITES_PER_EVENT) {
    throw new Error(
      `entity history: more than ${MAX_WRITES_PER_EVENT} writes for log ${position.logIndex} of block ${position.block.blockNumber} on chain ${position.block.chainId}`,
    );
  }
  return {
    ...pending.row,
    version: versionOf(position.block, position.logIndex, write),
    deleted: pending.deleted,
    validTo: VALID_TO_PENDING,
  };
}

/** The store a handler run gets, and the history it owes once the run is over. */
export interface HistoryWriter {
  db: Db;
  /**
   * Writes one version per entity the run wrote (its last state): call once the handler has returned. Undefined when
   * the run wrote no tracked entity (most runs), so that the caller awaits nothing.
   */
  flush(): Promise<void> | undefined;
}

/**
 * Ponder's store as a handler uses it, noting each write of a tracked table. The history gets one version per entity
 * and handler run, its state when the run ends: a run that inserts a domain and then names it, or moves a parent's
 * count twice, writes one version, not one per write (queries read states at the end of a block, never between two
 * writes of one event); a run that leaves the entity's kept columns as it found them (an update of the Omnigraph's
 * order keys, a transfer to the owner it had) writes none, since its last version holds that state already. The
 * versions are written by `flush()`, in the same event, so they are in its block's transaction.
 */
export function withEntityHistory(db: Db, position: WritePosition): HistoryWriter {
  let run = runs.get(db);
  if (run === undefined) runs.set(db, (run = new HistoryRun(db)));
  return run.start(position);
}

/**
 * One per store, reused by every handler run on it: Ponder runs one handler at a time, and a run's state (its
 * position, the entities it wrote) is set afresh when the next one starts, whether or not the last one flushed (a
 * handler that threw). Made once rather than per run: a run's store and its builders are methods, not closures.
 */
const runs = new WeakMap<Db, HistoryRun>();

type InnerInsert = PromiseLike<unknown> & {
  onConflictDoNothing(): Promise<unknown>;
  onConflictDoUpdate(set: unknown): Promise<unknown>;
};

class HistoryRun implements HistoryWriter {
  readonly db: Db;
  private position!: WritePosition;
  private readonly pending = new Map<string, Pending>();
  private readonly tracked = insertBuilders(
    (table: PgTable, values: unknown) =>
      new HistoryInsert(
        this,
        table,
        this.inner.insert(table as never).values(values as never) as unknown as InnerInsert,
      ),
  );

  constructor(private readonly inner: Db) {
    this.db = {
      find: inner.find,
      sql: inner.sql,
      insert: (table: PgTable) => this.insert(table),
      update: (table: PgTable, key: unknown) => this.update(table, key),
      delete: (table: PgTable, key: unknown) => this.delete(table, key),
      // A tracked table's delete leaves a version only if there was a row: the answer is needed there.
      [DISCARD]: async (table: PgTable, key: Row) => {
        if (ENTITY_HISTORIES.has(table)) await this.delete(table, key);
        else await discardRow(inner, table, key);
      },
    } as unknown as Db;
  }

  start(position: WritePosition): this {
    this.position = position;
    this.pending.clear();
    return this;
  }

  note(table: PgTable, result: unknown, deleted: boolean, before: Row | null | undefined): void {
    if (result === null || result === undefined) return;
    for (const row of (Array.isArray(result) ? result : [result]) as Row[]) {
      const key = `${getTableName(table)}:${String(row.id)}`;
      const first = this.pending.get(key);
      // Map order is first-write order; a later write of the same entity replaces its state in place.
      this.pending.set(key, {
        table,
        row: deleted ? { id: row.id } : keptOf(table, row),
        deleted,
        before: first ? first.before : before,
      });
    }
  }

  private insert(table: PgTable) {
    if (!ENTITY_HISTORIES.has(table)) return this.inner.insert(table as never);
    return this.tracked(table);
  }

  private update(table: PgTable, key: unknown) {
    const builder = this.inner.update(table as never, key as never);
    return ENTITY_HISTORIES.has(table) ? new HistoryUpdate(this, table, builder) : builder;
  }

  private async delete(table: PgTable, key: unknown): Promise<boolean> {
    const deleted = await this.inner.delete(table as never, key as never);
    if (deleted && ENTITY_HISTORIES.has(table)) this.note(table, key, true, undefined);
    return deleted;
  }

  flush(): Promise<void> | undefined {
    return this.pending.size === 0 ? undefined : this.writeVersions();
  }

  private async writeVersions(): Promise<void> {
    const { pending, position, inner: db } = this;
    const block =
      position.blockKey === undefined ? undefined : versionsOfBlock(position.blockKey, position.block.chainId);
    const versions = block?.versions;
    for (const [key, entry] of pending) {
      if (unchanged(entry)) continue;
      // biome-ignore lint/suspicious/noExplicitAny: one writer for five tables; their rows are built from the table's own columns.
      const history = ENTITY_HISTORIES.get(entry.table)! as any;
      let inBlock = versions?.get(key);
      if (inBlock === undefined && block?.resumable) {
        inBlock = await committedVersionInBlock(db, history, entry.row.id, position.block);
        if (inBlock !== undefined) versions!.set(key, inBlock);
      }
      if (inBlock === undefined) {
        const row = versionRow(entry, position);
        await db.insert(history).values(row as never);
        versions?.set(key, row.version as bigint);
      } else {
        const { id: _id, ...state } = entry.row;
        const changes = { ...state, deleted: entry.deleted };
        await db
          .insert(history)
          .values({ ...entry.row, version: inBlock, deleted: entry.deleted, validTo: VALID_TO_PENDING } as never)
          .onConflictDoUpdate(changes as never);
      }
    }
    pending.clear();
  }
}

/** An insert into a tracked table: the store's own, noting the entity it leaves. A plain insert creates the entity. */
class HistoryInsert extends PlainInsert {
  constructor(
    private readonly run: HistoryRun,
    private readonly table: PgTable,
    private readonly inner: InnerInsert,
  ) {
    super();
  }

  onConflictDoNothing(): Promise<unknown> {
    return this.kept(this.inner.onConflictDoNothing(), () => null);
  }

  /** The store hands the row it found to the update as a function: its state before. Not called, the upsert inserted. */
  onConflictDoUpdate(set: unknown): Promise<unknown> {
    let found: Row | null = null;
    const update = (current: Row) => {
      found = keptOf(this.table, current);
      return typeof set === "function" ? (set as (r: Row) => unknown)(current) : set;
    };
    return this.kept(this.inner.onConflictDoUpdate(update), () => found);
  }

  /** Awaited as it is: a plain insert, which creates the entity. */
  protected plain(): Promise<unknown> {
    return this.kept(this.inner, () => null);
  }

  private async kept(written: PromiseLike<unknown>, before: () => Row | null): Promise<unknown> {
    const result = await written;
    this.run.note(this.table, result, false, before());
    return result;
  }
}

/** An update of a tracked table. As a function, the store hands over the row it updates: its state before. */
class HistoryUpdate {
  constructor(
    private readonly run: HistoryRun,
    private readonly table: PgTable,
    private readonly builder: { set(values: unknown): Promise<unknown> },
  ) {}

  async set(values: unknown): Promise<unknown> {
    let before: Row | undefined;
    const row = await this.builder.set(((current: Row) => {
      before = keptOf(this.table, current);
      return typeof values === "function" ? (values as (r: Row) => unknown)(current) : values;
    }) as never);
    this.run.note(this.table, row, false, before);
    return row;
  }
}
