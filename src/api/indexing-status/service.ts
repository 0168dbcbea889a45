import type { IndexingFactsGatherer } from "./gather";
import { buildSnapshot, type IndexingSnapshot } from "./snapshot";

const SNAPSHOT_TTL_MS = 1_000;

/**
 * Caches the snapshot briefly so many concurrent pollers cost one gather; each request re-projects it to its own
 * clock (see projectRealtime), so the worst-case distance never looks better than it is.
 */
export class IndexingStatusService {
  private cached: { at: number; snapshot: IndexingSnapshot | undefined } | undefined;
  private inFlight: Promise<IndexingSnapshot | undefined> | undefined;

  constructor(
    private readonly gatherer: Pick<IndexingFactsGatherer, "gather">,
    private readonly now: () => number = () => Date.now(),
  ) {}

  async snapshot(): Promise<IndexingSnapshot | undefined> {
    if (this.cached && this.now() - this.cached.at < SNAPSHOT_TTL_MS) return this.cached.snapshot;
    this.inFlight ??= this.refresh().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  private async refresh(): Promise<IndexingSnapshot | undefined> {
    const facts = await this.gatherer.gather();
    const snapshot = facts ? buildSnapshot(facts, Math.floor(this.now() / 1000)) : undefined;
    this.cached = { at: this.now(), snapshot };
    return snapshot;
  }
}
