import { DatabaseUnavailableError, isDatabaseUnavailable } from "../shared/database-unavailable";

/*
 * Whether this process can serve the index: its database answers, and the schema holds a finished backfill.
 *
 * A probe reads Ponder's meta row (and, until a finished backfill is known, the indexer's record of it) every 250 ms
 * with a 750 ms deadline (of time this process could run: see afterRunnableTime), so a database that stops answering
 * is known within a second, and one that is back within 250 ms of answering. Routes that read the database ask
 * `unavailable()` first and answer 503 at once instead of waiting on a dead connection (Ponder's own /ready and
 * /status retry for ~64 s).
 *
 * "Finished backfill" is not Ponder's `is_ready`: every restart of the indexer sets that to 0 until it has caught up
 * (~10 s), though the rows are all there to serve. The indexer records the first `is_ready` in the schema
 * (backfill-record.ts); a backfill, once finished, stays finished for its schema (a reindex is a new schema).
 */

export interface ProbeResult {
  /** Ponder's `is_ready`: the running indexer has caught up (what Ponder's /ready answers). */
  ponderReady: boolean;
  /** The indexer recorded that this schema's backfill finished. */
  backfillRecorded: boolean;
}

export type HealthState =
  | { database: "answers"; backfillFinished: boolean; ponderReady: boolean; checkedAt: number }
  | { database: "unavailable"; reason: string; checkedAt: number };

export interface DatabaseHealthOptions {
  /** Reads the schema's state; rejects when the database cannot be reached. `knownFinished` spares the record read. */
  probe(knownFinished: boolean): Promise<ProbeResult>;
  intervalMs?: number;
  /** null: no deadline (PGlite, whose reads wait for the indexer's open transaction: slow, never gone). */
  deadlineMs?: number | null;
  /** Each time the state changes between answering and not (logging). */
  onChange?: (state: HealthState) => void;
}

export class DatabaseHealth {
  private state: HealthState | undefined;
  private inFlight: Promise<HealthState> | undefined;
  private finished = false;
  private readonly listeners = new Set<(state: HealthState) => void>();
  private readonly intervalMs: number;
  private readonly deadlineMs: number | null;

  constructor(private readonly options: DatabaseHealthOptions) {
    this.intervalMs = options.intervalMs ?? 250;
    this.deadlineMs = options.deadlineMs === undefined ? 750 : options.deadlineMs;
  }

  /** Calls `listener` after every probe; returns the function that stops it. */
  subscribe(listener: (state: HealthState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The reason the database is known not to answer, or undefined (answering, or not probed yet). */
  unavailable(): string | undefined {
    return this.state?.database === "unavailable" ? this.state.reason : undefined;
  }

  /** A fresh state: the probe under way, or a new one; never takes longer than the deadline. */
  check(): Promise<HealthState> {
    this.inFlight ??= this.probeOnce().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** Probes in the background until the returned function is called. */
  start(): () => void {
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    const loop = () => {
      if (stopped) return;
      timer = setTimeout(() => void this.check().finally(loop), this.intervalMs);
      timer.unref();
    };
    void this.check().finally(loop);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }

  private async probeOnce(): Promise<HealthState> {
    let cancelDeadline = () => {};
    const { deadlineMs } = this;
    const late = new Promise<never>((_, reject) => {
      if (deadlineMs === null) return;
      cancelDeadline = afterRunnableTime(deadlineMs, () =>
        reject(new DatabaseUnavailableError(`the database did not answer within ${deadlineMs} ms`)),
      );
    });
    let next: HealthState;
    try {
      const result = await Promise.race([this.options.probe(this.finished), late]);
      this.finished ||= result.backfillRecorded || result.ponderReady;
      next = {
        database: "answers",
        backfillFinished: this.finished,
        ponderReady: result.ponderReady,
        checkedAt: now(),
      };
    } catch (error) {
      next = { database: "unavailable", reason: reasonOf(error), checkedAt: now() };
    } finally {
      cancelDeadline();
    }
    if (this.state?.database !== next.database) this.options.onChange?.(next);
    this.state = next;
    for (const listener of this.listeners) listener(next);
    return next;
  }
}

/**
 * Runs `record` once Ponder's `is_ready` is first read as 1 (the indexer's process: see backfill-record.ts), again at
 * a later probe if it failed; returns the function that stops waiting.
 */
export function whenBackfillFinished(health: DatabaseHealth, record: () => Promise<void>): () => void {
  let busy = false;
  const stop = health.subscribe((state) => {
    if (busy || state.database !== "answers" || !state.ponderReady) return;
    busy = true;
    record().then(stop, (error: Error) => {
      console.warn(`Could not record the finished backfill (retrying): ${error.message}`);
      busy = false;
    });
  });
  return stop;
}

const now = () => Date.now();

/** A timer that fires this much later than asked has seen the event loop blocked, not a slow database. */
const LOOP_LAG_TOLERANCE_MS = 20;
/** However blocked the loop, the deadline ends within this many times its length. */
const MAX_DEADLINE_STRETCH = 8;

/**
 * Calls `expire` once `ms` of time in which this process could run have passed; returns the function that cancels.
 *
 * While our own event loop is blocked (a large GraphQL document parsed, the first Omnigraph query building its
 * schema, a garbage collection), the database's answer waits unread in the socket, and a plain timer that fires after
 * the block runs before the answer is read: the probe would call an answering database unavailable, and every route
 * would serve 503 (seen on a replica answering its first queries under load). So the time the loop was blocked does
 * not count, and an expiry waits for the I/O already arrived (setImmediate runs after the loop's poll phase).
 */
function afterRunnableTime(ms: number, expire: () => void): () => void {
  const hardStop = now() + ms * MAX_DEADLINE_STRETCH;
  let timer: NodeJS.Timeout | NodeJS.Immediate | undefined;
  let cancelled = false;
  const arm = (wait: number) => {
    const armedAt = now();
    timer = setTimeout(() => {
      const blocked = now() - armedAt - wait;
      if (blocked > LOOP_LAG_TOLERANCE_MS && now() < hardStop) return arm(Math.min(blocked, hardStop - now()));
      timer = setImmediate(() => cancelled || expire());
    }, wait);
  };
  arm(ms);
  return () => {
    cancelled = true;
    clearTimeout(timer as NodeJS.Timeout);
    clearImmediate(timer as NodeJS.Immediate);
  };
}

function reasonOf(error: unknown): string {
  const e = error as { message?: string; code?: string; cause?: { message?: string; code?: string } };
  // drizzle wraps the driver's error ("Failed query: …"): the driver's says what happened.
  const inner = e.cause?.message ? e.cause : e;
  const message = inner.message || inner.code || String(error);
  if (message.startsWith("the database")) return message;
  return isDatabaseUnavailable(error)
    ? `the database did not answer: ${message}`
    : `the database could not be read: ${message}`;
}
