import { buildSnapshot, type IndexingSnapshot } from "../shared/indexing-snapshot";
import type { IndexingFactsGatherer } from "./gather";

const REFRESH_MS = 1_000;

/**
 * Holds the latest snapshot and refreshes it off the request path: one gather at a time (single-flight), a stale
 * snapshot is served while the next one is gathered, and only a request that comes before the very first gather
 * has finished waits for it. Each request re-projects the snapshot to its own clock (see projectRealtime), so a
 * stale snapshot makes the worst-case distance look worse, never better.
 */
export class IndexingStatusService {
  private latest: { at: number; snapshot: IndexingSnapshot | undefined } | undefined;
  private inFlight: Promise<void> | undefined;
  private lastError: string | undefined;

  constructor(
    private readonly gatherer: Pick<IndexingFactsGatherer, "gather">,
    private readonly now: () => number = () => Date.now(),
    private readonly refreshMs = REFRESH_MS,
  ) {}

  async snapshot(): Promise<IndexingSnapshot | undefined> {
    if (!this.latest) {
      await this.refresh();
      return this.latest!.snapshot;
    }
    if (this.now() - this.latest.at >= this.refreshMs) this.refreshInBackground();
    return this.latest.snapshot;
  }

  /** Gathers now and every refresh interval, so pollers find a fresh snapshot instead of triggering a gather. */
  start(): () => void {
    this.refreshInBackground();
    const timer = setInterval(() => this.refreshInBackground(), this.refreshMs);
    // Never keeps a process alive that is otherwise done (tests, `ponder` shutting down).
    timer.unref();
    return () => clearInterval(timer);
  }

  private refreshInBackground(): void {
    this.refresh().then(
      () => {
        this.lastError = undefined;
      },
      (error: unknown) => {
        // Logged once per distinct failure: an RPC outage would otherwise log every second.
        const message = error instanceof Error ? error.message : String(error);
        if (message !== this.lastError)
          console.warn(`indexing status: refresh failed, serving the previous snapshot: ${message}`);
        this.lastError = message;
      },
    );
  }

  /** Single-flight: a refresh asked for while one runs joins it. Rejects when the gather fails (the previous snapshot stays). */
  private refresh(): Promise<void> {
    this.inFlight ??= (async () => {
      try {
        const facts = await this.gatherer.gather();
        const at = this.now();
        this.latest = { at, snapshot: facts ? buildSnapshot(facts, Math.floor(at / 1000)) : undefined };
      } finally {
        this.inFlight = undefined;
      }
    })();
    return this.inFlight;
  }
}
