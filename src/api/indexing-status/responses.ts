import type { IndexingSnapshot } from "../shared/indexing-snapshot";

/** Bounds the entries per second, whatever query values clients invent. */
const MAX_ENTRIES = 64;

/**
 * Responses depend only on the snapshot, the wall-clock second they are projected to and the query, so every poller
 * in one second gets the same prepared answer: the projection and JSON serialization run once per second per query,
 * not once per request.
 */
export class PreparedResponses<T> {
  private snapshot: IndexingSnapshot | undefined | null = null;
  private second = Number.NaN;
  private readonly entries = new Map<string, T>();

  get(snapshot: IndexingSnapshot | undefined, second: number, key: string, prepare: () => T): T {
    if (snapshot !== this.snapshot || second !== this.second) {
      this.snapshot = snapshot;
      this.second = second;
      this.entries.clear();
    }
    let prepared = this.entries.get(key);
    if (prepared === undefined) {
      prepared = prepare();
      if (this.entries.size < MAX_ENTRIES) this.entries.set(key, prepared);
    }
    return prepared;
  }
}
