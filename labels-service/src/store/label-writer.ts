import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { labelSetIdSchema } from "../label-set.js";
import { readinessOf } from "./readiness.js";
import { readMeta, SCHEMA_SQL, SCHEMA_VERSION, writeMeta } from "./schema.js";

export class IngestConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "IngestConflictError";
  }
}

export interface IngestPlan {
  labelSetId: string;
  labelSetVersion: number;
  firstIngest: boolean;
}

export interface IngestCounts {
  labelSetId: string;
  labelSetVersion: number;
  added: number;
  skipped: number;
  recordsCount: number;
}

/** What the input says about itself: an .ensrainbow header names both; other formats at most the id. */
export interface IngestTarget {
  labelSetId?: string;
  labelSetVersion?: number;
}

// Rows per multi-row INSERT: fewer calls into SQLite for the same work.
const ROWS_PER_STATEMENT = 64;
// Records are appended to an unindexed staging table and moved into the labels B-tree in key order every
// this many rows: inserting sorted keys is ~3x faster than random ones, and the staging space stays bounded.
const STAGING_ROWS = 2_000_000;

const WAL_SWITCH_PATIENCE_MS = 10_000;

/**
 * Switching a new file to WAL needs it to itself for an instant, and SQLite answers SQLITE_BUSY at once, without its
 * busy handler, when another connection (a server that just found the file, say) holds it: retry for a while.
 */
function switchToWal(db: Database.Database): void {
  const deadline = Date.now() + WAL_SWITCH_PATIENCE_MS;
  for (;;) {
    try {
      db.pragma("journal_mode = WAL");
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== "SQLITE_BUSY" || Date.now() > deadline) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}

/**
 * Adds one label set version in a single write transaction. Until commit() nothing is visible to readers,
 * and a crash or kill discards the uncommitted WAL frames: the database stays exactly at its previous version.
 */
export class LabelWriter {
  private readonly db: Database.Database;
  private plan: IngestPlan | null = null;
  private previousCount = 0;
  private insertOne!: Database.Statement;
  private insertMany!: Database.Statement;
  private moveStaged!: Database.Statement;
  private clearStaged!: Database.Statement;
  private stagedRows = 0;
  private readonly pending: unknown[] = [];
  private added = 0;
  private flushedRows = 0;

  constructor(readonly dbPath: string) {
    mkdirSync(dirname(dbPath), { recursive: true });
    this.db = new Database(dbPath);
    switchToWal(this.db);
    this.db.pragma("synchronous = NORMAL");
    // A bounded page cache keeps memory flat however large the input; 256 MiB holds ~4M records' B-tree.
    this.db.pragma("cache_size = -262144");
    // The staging table and the sorter spill to temporary files rather than growing memory.
    this.db.pragma("temp_store = FILE");
    this.db.pragma("busy_timeout = 2000");
    // Lets the sorter that orders staged rows use a helper thread.
    this.db.pragma("threads = 2");
    this.db.exec(SCHEMA_SQL);
    const meta = readMeta(this.db);
    if (meta.schemaVersion === null) writeMeta(this.db, { schemaVersion: SCHEMA_VERSION });
  }

  /** Decides the version to write and opens the transaction. Throws IngestConflictError on a mismatch. */
  begin(target: IngestTarget): IngestPlan {
    if (target.labelSetId !== undefined) {
      const id = labelSetIdSchema.safeParse(target.labelSetId);
      if (!id.success)
        throw new IngestConflictError(`Invalid label set id "${target.labelSetId}": ${id.error.issues[0].message}`);
    }
    const plan = this.planFor(target);
    if (plan.firstIngest) {
      // Committed on its own so servers say "first ingest in progress" (503) rather than "nothing here".
      this.db.transaction(() => writeMeta(this.db, { ingestState: "ingesting", labelSetId: plan.labelSetId }))();
    }
    try {
      this.db.exec("BEGIN IMMEDIATE");
    } catch (error) {
      throw new IngestConflictError(`Another ingest is writing to ${this.dbPath}: ${(error as Error).message}`);
    }
    const recheck = this.planFor(target);
    if (recheck.labelSetVersion !== plan.labelSetVersion) {
      this.db.exec("ROLLBACK");
      throw new IngestConflictError("Another ingest finished while this one was starting; run it again");
    }
    this.plan = plan;
    this.previousCount = readMeta(this.db).recordsCount ?? 0;
    this.db.exec(
      "DROP TABLE IF EXISTS temp.staging; CREATE TEMP TABLE staging (labelhash BLOB NOT NULL, label BLOB NOT NULL)",
    );
    this.insertOne = this.db.prepare("INSERT INTO temp.staging (labelhash, label) VALUES (?, ?)");
    const values = Array.from({ length: ROWS_PER_STATEMENT }, () => "(?, ?)").join(", ");
    this.insertMany = this.db.prepare(`INSERT INTO temp.staging (labelhash, label) VALUES ${values}`);
    this.moveStaged = this.db.prepare(
      "INSERT OR IGNORE INTO labels (labelhash, label, version) SELECT labelhash, label, ? FROM temp.staging ORDER BY labelhash",
    );
    this.clearStaged = this.db.prepare("DELETE FROM temp.staging");
    return plan;
  }

  private planFor(target: IngestTarget): IngestPlan {
    const readiness = readinessOf(readMeta(this.db));
    if (!readiness.ready) {
      if (target.labelSetId === undefined) {
        throw new IngestConflictError("The first ingest into a database needs a label set id (--label-set-id)");
      }
      if (target.labelSetVersion !== undefined && target.labelSetVersion !== 0) {
        throw new IngestConflictError(
          `The first ingest must be label set version 0, but the input is version ${target.labelSetVersion}`,
        );
      }
      return { labelSetId: target.labelSetId, labelSetVersion: 0, firstIngest: true };
    }
    if (target.labelSetId !== undefined && target.labelSetId !== readiness.labelSetId) {
      throw new IngestConflictError(
        `Label set id mismatch: the database holds "${readiness.labelSetId}" but the input is "${target.labelSetId}"`,
      );
    }
    const next = readiness.highestVersion + 1;
    if (target.labelSetVersion !== undefined && target.labelSetVersion !== next) {
      throw new IngestConflictError(
        `Label set version must be exactly one higher than the database's highest version ${readiness.highestVersion}, ` +
          `but the input is version ${target.labelSetVersion}`,
      );
    }
    return { labelSetId: readiness.labelSetId, labelSetVersion: next, firstIngest: false };
  }

  /**
   * Queues one record; a labelhash already stored (in any version) is skipped. The buffers are kept until
   * the next flush, so the caller must not reuse them.
   */
  add(labelhash: Buffer, label: Buffer): void {
    this.pending.push(labelhash, label);
    if (this.pending.length === ROWS_PER_STATEMENT * 2) this.flushPending();
  }

  private flushPending(): void {
    const rows = this.pending.length / 2;
    if (rows === ROWS_PER_STATEMENT) {
      this.insertMany.run(this.pending);
    } else {
      for (let i = 0; i < this.pending.length; i += 2) this.insertOne.run(this.pending[i], this.pending[i + 1]);
    }
    this.pending.length = 0;
    this.stagedRows += rows;
    if (this.stagedRows >= STAGING_ROWS) this.moveStagedRows();
  }

  private moveStagedRows(): void {
    this.added += this.moveStaged.run(this.plan!.labelSetVersion).changes;
    this.clearStaged.run();
    this.flushedRows += this.stagedRows;
    this.stagedRows = 0;
  }

  /** Records seen so far, added or skipped. */
  get processed(): number {
    return this.flushedRows + this.stagedRows + this.pending.length / 2;
  }

  commit(): IngestCounts {
    this.flushPending();
    this.moveStagedRows();
    this.db.exec("DROP TABLE temp.staging");
    const plan = this.plan!;
    const skipped = this.flushedRows - this.added;
    const recordsCount = this.previousCount + this.added;
    writeMeta(this.db, {
      schemaVersion: SCHEMA_VERSION,
      labelSetId: plan.labelSetId,
      highestVersion: plan.labelSetVersion,
      recordsCount,
      ingestState: "ready",
    });
    this.db.exec("COMMIT");
    this.plan = null;
    try {
      // Give back the WAL space the transaction used; a busy reader just means it is reclaimed later.
      this.db.pragma("wal_checkpoint(TRUNCATE)");
    } catch {
      /* reclaimed at a later checkpoint */
    }
    return {
      labelSetId: plan.labelSetId,
      labelSetVersion: plan.labelSetVersion,
      added: this.added,
      skipped,
      recordsCount,
    };
  }

  /** Discards everything since begin(). A failed first ingest leaves the database marked failed (served as 503). */
  rollback(): void {
    const plan = this.plan;
    this.plan = null;
    this.pending.length = 0;
    if (this.db.inTransaction) this.db.exec("ROLLBACK");
    if (plan?.firstIngest) this.db.transaction(() => writeMeta(this.db, { ingestState: "failed" }))();
  }

  close(): void {
    if (this.db.inTransaction) this.rollback();
    this.db.close();
  }
}
