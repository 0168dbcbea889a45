import Database from "better-sqlite3";
import { LabelServiceError, MESSAGES } from "../errors.js";
import type { LabelSetPin } from "../label-set.js";
import { type Labelhash, normalizeLabelhash } from "../labelhash.js";
import { maxVersionFor } from "./pin.js";
import { type Readiness, readinessOf } from "./readiness.js";
import { readMeta } from "./schema.js";

export interface LabelStoreConfig {
  labelSetId: string;
  highestLabelSetVersion: number;
  recordsCount: number;
  schemaVersion: number;
}

/**
 * Read-only view of a label database. Safe to keep open while `ingest` adds a version: SQLite's WAL gives
 * each read a committed snapshot, and the metadata is re-read whenever another connection has committed.
 *
 * Reads share one snapshot per event-loop turn (a read transaction from the first read of the turn until
 * setImmediate): a transaction of its own per heal cost two fcntl locks, an fstat and a `PRAGMA data_version`,
 * about half of the heal's time in SQLite. A commit is seen by the first read of the next turn, so by every
 * request that arrives after it.
 */
export class LabelStore {
  private readonly db: Database.Database;
  private readonly dataVersion: Database.Statement;
  private readonly beginSnapshot: Database.Statement;
  private readonly endSnapshot: Database.Statement;
  private lookup: Database.Statement | null = null;
  private inSnapshot = false;
  private seenDataVersion = -1;
  private current: Readiness = { ready: false, reason: "not loaded" };

  constructor(
    readonly dbPath: string,
    options: { memoryMapped?: boolean } = {},
  ) {
    this.db = new Database(dbPath, { readonly: true, fileMustExist: true });
    // Enough page cache for the B-tree's interior pages of a large set, bounded so serving memory stays flat.
    this.db.pragma("cache_size = -32768");
    // Leaf pages read through a memory map instead of a read() copy each: 3–4 µs less per lookup at 20M labels. The
    // mapped pages are the OS's page cache, clean and reclaimable, but a process's RSS counts them once touched (up
    // to the file's size), hence opt-in: the server takes it, an indexer healing in-process does not. SQLite's build
    // caps the map at 2 GiB; a larger file reads the rest as before. Safe because a label database never shrinks.
    if (options.memoryMapped) this.db.pragma("mmap_size = 2147418112");
    this.dataVersion = this.db.prepare("PRAGMA data_version").pluck();
    this.beginSnapshot = this.db.prepare("BEGIN");
    this.endSnapshot = this.db.prepare("COMMIT");
  }

  /** Current readiness, as of this turn's snapshot; the metadata is re-read only when the file changed. */
  readiness(): Readiness {
    if (this.inSnapshot) return this.current;
    this.beginSnapshot.run();
    this.inSnapshot = true;
    setImmediate(() => this.releaseSnapshot());
    const dataVersion = this.dataVersion.get() as number;
    if (dataVersion !== this.seenDataVersion) {
      this.seenDataVersion = dataVersion;
      this.current = readinessOf(readMeta(this.db));
      if (this.current.ready && this.lookup === null) {
        this.lookup = this.db.prepare("SELECT label, version FROM labels WHERE labelhash = ?").raw();
      }
    }
    return this.current;
  }

  private releaseSnapshot(): void {
    if (!this.inSnapshot) return;
    this.inSnapshot = false;
    if (this.db.open && this.db.inTransaction) this.endSnapshot.run();
  }

  /** Throws 503 when not ready; otherwise the served set. */
  requireReady(): Extract<Readiness, { ready: true }> {
    const readiness = this.readiness();
    if (!readiness.ready) throw new LabelServiceError(503, readiness.reason);
    return readiness;
  }

  config(): LabelStoreConfig {
    const served = this.requireReady();
    return {
      labelSetId: served.labelSetId,
      highestLabelSetVersion: served.highestVersion,
      recordsCount: served.recordsCount,
      schemaVersion: served.schemaVersion,
    };
  }

  /** The highest version a lookup may return for this pin; throws LabelServiceError 400/503. */
  maxVersion(pin: LabelSetPin = {}): number {
    return maxVersionFor(pin, this.requireReady());
  }

  /** Lookup of a normalized (lowercase) labelhash given as raw bytes; no validation, for hot paths. */
  lookupBytes(labelhash: Buffer, maxVersion: number): string | null {
    const row = this.lookup!.get(labelhash) as [Buffer, number] | undefined;
    if (row === undefined || row[1] > maxVersion) return null;
    return row[0].toString("utf8");
  }

  /** The label for a labelhash ("0x" + 64 hex, any case), or null when unknown at the pinned version. */
  heal(labelhash: string, pin: LabelSetPin = {}): string | null {
    const normalized = normalizeLabelhash(labelhash);
    if (normalized === null) throw new LabelServiceError(400, MESSAGES.invalidLabelhash);
    return this.lookupBytes(Buffer.from(normalized.slice(2), "hex"), this.maxVersion(pin));
  }

  /** Heals many at once; keys of the result are the lowercase labelhashes. */
  healMany(labelhashes: readonly string[], pin: LabelSetPin = {}): Map<Labelhash, string | null> {
    const normalized = labelhashes.map((h) => {
      const n = normalizeLabelhash(h);
      if (n === null) throw new LabelServiceError(400, MESSAGES.invalidLabelhash);
      return n;
    });
    const maxVersion = this.maxVersion(pin);
    const result = new Map<Labelhash, string | null>();
    for (const h of normalized) result.set(h, this.lookupBytes(Buffer.from(h.slice(2), "hex"), maxVersion));
    return result;
  }

  close(): void {
    this.releaseSnapshot();
    this.db.close();
  }
}

/** Opens a label database read-only. Throws if the file does not exist. */
export function openLabelStore(dbPath: string): LabelStore {
  return new LabelStore(dbPath);
}
