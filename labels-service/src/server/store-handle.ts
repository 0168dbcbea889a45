import { existsSync } from "node:fs";
import { LabelStore } from "../store/label-store.js";

// How long to wait before looking for a missing database file again.
const RETRY_OPEN_MS = 500;

/** Opens the database once it exists, so a server can start before the first ingest has created it. */
export class StoreHandle {
  private store: LabelStore | null = null;
  private lastAttempt = 0;

  constructor(readonly dbPath: string) {}

  get(): LabelStore | null {
    if (this.store !== null) return this.store;
    const now = Date.now();
    if (now - this.lastAttempt < RETRY_OPEN_MS) return null;
    this.lastAttempt = now;
    if (!existsSync(this.dbPath)) return null;
    try {
      this.store = new LabelStore(this.dbPath, { memoryMapped: true });
    } catch {
      this.store = null;
    }
    return this.store;
  }

  close(): void {
    this.store?.close();
    this.store = null;
  }
}
