import { sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { getConfig } from "../../../config";
import { writeBehindTotals } from "../../../runtime/metrics";
import type {
  PonderBackfillEnd,
  PonderBatchEvent,
  PonderBatchTransaction,
  PonderChainCheckpoint,
  PonderPoolQuery,
} from "../../../runtime/ponder-hooks";
import { copyRows } from "./copy";
import { HeldRows } from "./held-rows";
import { closePreviousVersions, isHistoryTable, settleValidTo } from "./history-valid-to";
import { keyPredictor, liveRows } from "./live";
import { type FrozenLiveRows, type LiveRows, writeFrozen } from "./live-rows";
import type { KeyPredictor } from "./prefetch";
import { keyOf, type Row } from "./rows";
import { updateRows } from "./writes";

/*
 * The backfill's batches as the write-behind store sees them (patch omnichain-backfill-batch-hooks). Each batch's rows
 * are held until Ponder flushes it; then they are written in bulk (./writes.ts, ./copy.ts) and the checkpoint that
 * commits with them is the one of the batch they belong to, so a SIGKILL at any moment leaves a prefix of batches.
 *
 * On PostgreSQL the writes are pipelined, as graph-node's writer queues a block's entities while its mappings go on:
 * batch N's rows are sent on batch N+1's transaction as soon as it begins, and the database takes them while N+1's
 * handlers run on the indexer's thread (the connection orders them: every read of N+1 that reaches the database
 * comes after them). That transaction then commits N's checkpoint, not N+1's; the last batch's rows and checkpoint
 * get a transaction of their own at the backfill's end (`end`). The first batch of a process is written in its own
 * transaction, so that every later one has a committed checkpoint to carry until its rows follow. PGlite runs in the
 * indexer's thread, so there is nothing to overlap: each batch is written in its own transaction.
 *
 * A batch Ponder runs again after a failure (`begin` while a batch is open, or at a checkpoint already flushed)
 * starts empty again, and the batch before it, whose rows the rolled-back transaction was writing, is written again
 * before any read: no row is written twice, none is lost.
 */

/**
 * A backfill batch's COMMIT returns before its WAL reaches the disk (PostgreSQL's asynchronous commit, for this
 * transaction alone). A database crash can then lose the last few committed batches, never part of one: the rows and
 * the checkpoint go together, and the restarted indexer runs those batches again from the checkpoint that survived,
 * as after any crash. Each commit no longer waits for a WAL flush of its ~10 MB of rows (docs/benchmarks.md).
 */
const ASYNC_COMMIT = "SET LOCAL synchronous_commit = off";

/** Handlers' events between two turns of the event loop while a write is being sent (`turn`). */
const TURN_EVERY = 64;

/** A flushed batch: its rows, not yet known to be committed, and the checkpoints that commit with them. */
interface FrozenBatch {
  insertOnly: Map<PgTable, HeldRows>;
  /** Keys of `insertOnly` whose row the previous batch wrote: written by UPDATE (a version changed again in its block). */
  rewritten: Map<PgTable, Set<string>>;
  live: FrozenLiveRows | undefined;
  checkpoints?: PonderChainCheckpoint[];
}

/** What the batches use: the live store and its key predictor, and the settings that turn them and the pipeline on. */
export interface BatchParts {
  live: LiveRows;
  predictor: KeyPredictor;
  settings: () => { live: boolean; pipeline: boolean };
}

export class BatchRows {
  constructor(private readonly parts: BatchParts) {}

  private tables = new Map<PgTable, HeldRows>();
  private rewritten = new Map<PgTable, Set<string>>();
  private isOpen = false;
  private pipelined = false;
  /** The last checkpoint of the last batch flushed: a batch beginning at or before it is a retry of that batch. */
  private flushedUpTo = "";
  private openUpTo = "";
  /** The flushed batch whose rows the next transaction writes. */
  private frozen: FrozenBatch | undefined;
  /** The batch whose rows the open transaction writes, and that write while it runs. */
  private inFlight: FrozenBatch | undefined;
  private writing: Promise<void> | undefined;
  /** Whether that write is still sending; and the handlers' events since they last let it (`turn`). */
  private sending = false;
  private eventsSinceTurn = 0;
  /** The checkpoints the last committed transaction wrote, and those the open one writes. */
  private committedCheckpoints: PonderChainCheckpoint[] | undefined;
  private openCheckpoints: PonderChainCheckpoint[] | undefined;

  get open(): boolean {
    return this.isOpen;
  }

  /**
   * Opens a batch: the insert-only rows start empty; with the live tables (NAMEINDEX_WRITE_BEHIND_LIVE) and Ponder's
   * transaction and events, the live store begins it and loads the rows the events predict, and the previous batch's
   * rows start on their way (while they are, the live store's reads go to Ponder's `pool`).
   */
  async begin(
    tx?: PonderBatchTransaction,
    events?: readonly PonderBatchEvent[],
    pool?: PonderPoolQuery,
  ): Promise<void> {
    const previous = this.writing;
    this.writing = undefined;
    const first = events?.[0]?.checkpoint ?? "";
    const retry = this.isOpen || (first !== "" && first <= this.flushedUpTo);
    if (retry) this.frozen = undefined;
    else {
      this.committedCheckpoints = this.openCheckpoints ?? this.committedCheckpoints;
      this.inFlight = this.frozen;
      this.frozen = undefined;
    }
    this.openCheckpoints = undefined;
    this.openUpTo = events?.at(-1)?.checkpoint ?? "";
    this.tables = new Map();
    this.rewritten = new Map();
    this.isOpen = true;
    // A failed transaction's write may still be running on its connection: it ends before anything is written again.
    await previous?.catch(() => {});
    if (tx === undefined || events === undefined) return;
    const { live, pipeline } = this.parts.settings();
    if (!live) return;
    this.pipelined = pipeline && tx.$dialect === "postgres";
    // Sent now, answered before anything else on the connection: nothing waits for it alone.
    const asyncCommit = tx.$dialect === "postgres" ? failureOf(tx.$client.query(ASYNC_COMMIT)) : undefined;
    // A rolled-back transaction took the previous batch's rows with it: they go first, before any read.
    if (retry && this.inFlight !== undefined) await writeBatch(tx, this.inFlight);
    await this.parts.live.begin(tx, retry, retry ? undefined : this.inFlight?.live);
    // Before a retry's handlers, only its transaction has the rows it wrote again. Otherwise Ponder's pool sees every
    // batch but the previous one (on its way in this transaction, or committed), and the store holds every key that
    // one changed: there the prefetch's queries run side by side, while the previous batch's rows are sent and the
    // handlers run (a read waits for its table's).
    const beside = !retry && pool !== undefined && tx.$dialect === "postgres" ? pool : undefined;
    const prefetch = this.parts.predictor.prefetch(beside ?? tx, events, this.parts.live, beside !== undefined);
    if (!retry && this.inFlight !== undefined) {
      // The reads nobody predicted would queue behind the COPY on the transaction's connection: they go to the pool.
      if (pool !== undefined) this.parts.live.readThrough(pool);
      this.sending = true;
      this.writing = writeBatch(tx, this.inFlight).finally(() => {
        this.sending = false;
      });
      this.writing.catch(() => {}); // awaited at the flush; a failure fails the batch's handlers' reads too
    }
    await prefetch;
    const refused = await asyncCommit;
    if (refused !== undefined) throw refused;
  }

  /**
   * A turn of the event loop every TURN_EVERY events while the previous batch's rows are being sent, else undefined.
   * The handlers answered from memory run as one chain of microtasks, in which the socket's `drain` never fires: the
   * write would make no progress until the handlers end, and nothing would overlap.
   */
  turn(): Promise<void> | undefined {
    if (!this.sending || ++this.eventsSinceTurn < TURN_EVERY) return undefined;
    this.eventsSinceTurn = 0;
    return new Promise((resolve) => setImmediate(resolve));
  }

  /** A row of this batch, or of the previous one while its rows are on their way. */
  get(table: PgTable, key: string): Row | undefined {
    return this.tables.get(table)?.get(key) ?? this.inFlight?.insertOnly.get(table)?.get(key);
  }

  /** A plain insert's row (./held-rows.ts: no key is built for it). */
  append(table: PgTable, row: Row): void {
    this.heldOf(table).append(row);
  }

  /** Holds `row` under `key`: a new key goes last, a held key keeps its place (an upsert of a row of this batch). */
  set(table: PgTable, key: string, row: Row): void {
    const rows = this.heldOf(table);
    if (!rows.has(key) && this.inFlight?.insertOnly.get(table)?.has(key)) {
      // The previous batch's row, changed again (its block goes on in this batch): an UPDATE after its COPY.
      let keys = this.rewritten.get(table);
      if (keys === undefined) this.rewritten.set(table, (keys = new Set()));
      keys.add(key);
    }
    rows.set(key, row);
  }

  private heldOf(table: PgTable): HeldRows {
    let rows = this.tables.get(table);
    if (rows === undefined) this.tables.set(table, (rows = new HeldRows(table)));
    return rows;
  }

  /** Closes the batch: its rows are written now, or pipelined, in the next batch's transaction. */
  async flush(tx: PonderBatchTransaction): Promise<void> {
    if (this.writing !== undefined) {
      const writing = this.writing;
      this.writing = undefined;
      const started = performance.now();
      await writing;
      writeBehindTotals.waitSeconds += (performance.now() - started) / 1000;
    }
    // A prefetch nobody's read waited for may still be on its way: its rows go into what the batch leaves.
    if (this.parts.live.started) await this.parts.live.settled();
    const batch: FrozenBatch = {
      insertOnly: this.tables,
      rewritten: this.rewritten,
      live: this.parts.live.started ? this.parts.live.freeze() : undefined,
    };
    this.tables = new Map();
    this.rewritten = new Map();
    if (this.pipelined && (this.inFlight !== undefined || this.committedCheckpoints !== undefined)) {
      this.frozen = batch;
      writeBehindTotals.pipelined += 1;
    } else await writeBatch(tx, batch);
    // Closed only now: a flush that failed leaves the batch open, and Ponder's retry begins it again.
    this.isOpen = false;
    this.flushedUpTo = this.openUpTo;
  }

  /**
   * The checkpoints the open transaction commits: Ponder's own for its batch when the batch's rows are written in it;
   * pipelined, the previous batch's (whose rows it writes), or the last committed ones again when it writes none.
   */
  checkpoints<T extends PonderChainCheckpoint>(results: T[]): T[] {
    let out = results;
    if (this.frozen !== undefined) {
      this.frozen.checkpoints = results;
      out = (this.inFlight?.checkpoints ?? this.committedCheckpoints) as T[];
    }
    this.openCheckpoints = out;
    return out;
  }

  /**
   * The open batch failed and Ponder is about to roll its transaction back: the previous batch's write, still sending
   * statements on that connection, ends first, so that none of them follows the ROLLBACK outside the transaction.
   */
  async abort(): Promise<void> {
    const writing = this.writing;
    this.writing = undefined;
    await writing?.catch(() => {});
  }

  /** After the backfill's last batch: its rows and checkpoint, in a transaction of their own. */
  async end({ qb, checkpointTable, chains }: PonderBackfillEnd): Promise<void> {
    const last = this.frozen;
    this.frozen = this.inFlight = undefined;
    this.parts.predictor.forget();
    this.committedCheckpoints = this.openCheckpoints = undefined;
    if (last === undefined) return;
    await qb.transaction(async (tx) => {
      await writeBatch(tx, last);
      await tx.wrap!((db) =>
        db
          .insert(checkpointTable)
          .values(
            last.checkpoints!.map(({ chainId, checkpoint }) => ({
              chainName: chains.find((chain) => chain.id === chainId)!.name,
              chainId,
              latestCheckpoint: checkpoint,
              safeCheckpoint: checkpoint,
              finalizedCheckpoint: checkpoint,
            })),
          )
          .onConflictDoUpdate({
            target: checkpointTable.chainName,
            set: {
              safeCheckpoint: sql`excluded.safe_checkpoint`,
              latestCheckpoint: sql`excluded.latest_checkpoint`,
              finalizedCheckpoint: sql`excluded.finalized_checkpoint`,
            },
          }),
      );
    });
  }
}

/** A query's failure as a value, so that it is never an unhandled rejection while the caller awaits something else. */
const failureOf = (query: Promise<unknown>): Promise<unknown> =>
  query.then(
    () => undefined,
    (error: unknown) => error ?? new Error("query failed"),
  );

/** A batch's rows, in `tx`: the insert-only tables' (history versions closed first), then the live tables' changes. */
async function writeBatch(tx: PonderBatchTransaction, batch: FrozenBatch): Promise<void> {
  const started = performance.now();
  for (const [table, rows] of batch.insertOnly) {
    const rewritten = batch.rewritten.get(table);
    const fresh = rewritten === undefined ? rows.rows : rows.rows.filter((r) => !rewritten.has(keyOf(table, r)));
    const first = isHistoryTable(table) ? settleValidTo(rows.rows) : undefined;
    if (rewritten !== undefined)
      await updateRows(
        tx,
        table,
        [...rewritten].map((k) => rows.get(k)!),
      );
    if (first !== undefined) await closePreviousVersions(tx, table, first);
    await copyRows(tx, table, fresh);
    writeBehindTotals.rows += rows.size;
  }
  if (batch.live !== undefined) await writeFrozen(tx, batch.live);
  writeBehindTotals.copySeconds += (performance.now() - started) / 1000;
}

/** The one batch of this process (Ponder indexes one batch at a time). */
export const backfillBatch = new BatchRows({
  live: liveRows,
  predictor: keyPredictor,
  settings: () => ({ live: getConfig().writeBehindLive, pipeline: getConfig().writeBehindPipeline }),
});
