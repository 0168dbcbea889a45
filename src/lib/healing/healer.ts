import type { Hex } from "viem";
import { DEFAULT_LABELS_RETRY_BUDGET_MS } from "../../config/env-schema";
import { labelhashOf } from "../labels";
import { RecentMap } from "../recent-map";
import { LabelHealingError, TransientLabelSourceError } from "./errors";
import type { LabelSource } from "./sources";

export interface RetryPolicy {
  /** Keep retrying this long after the first failure (the last wait is cut to fit); then stop indexing. */
  totalMs: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

/**
 * Each retry waits a random 50–100% of its backoff step. Requests that fail together (a restart cuts every request in
 * flight) would otherwise retry at the same instants for the whole budget and, against a service that falls over
 * again under that burst, fail together every time (test/reliability/labels-flapping.test.ts at full size did).
 */
const JITTER = 0.5;

export const DEFAULT_RETRY: RetryPolicy = {
  totalMs: DEFAULT_LABELS_RETRY_BUDGET_MS,
  initialDelayMs: 250,
  maxDelayMs: 10_000,
};

export interface LabelHealerOptions {
  source: LabelSource;
  /** Entries kept in memory; "not found" answers are cached too (a pinned label set never changes its answers). */
  cacheSize?: number;
  retry?: Partial<RetryPolicy>;
  sleep?: (ms: number) => Promise<void>;
  warn?: (message: string) => void;
  /** Uniform in [0, 1): draws the retry waits' jitter (tests pass a seeded one). */
  random?: () => number;
}

/** Counters for the metrics endpoint: how much healing costs the indexer. */
export interface HealingMetrics {
  /** heal() calls (a healMany() counts one per hash). */
  calls: number;
  cacheHits: number;
  /** Requests to the source: one per single lookup, one per batch. */
  sourceRequests: number;
  healed: number;
  notFound: number;
  /** Labels the source returned whose labelhash differs from the asked hash (treated as not found). */
  mismatches: number;
  /** Transient failures that were retried. */
  retries: number;
  /** Wall time the handlers spent in heal(), cache hits included: what healing costs indexing. */
  totalMs: number;
  /** Wall time of healMany() batches (the prefetch beside the handlers). */
  batchMs: number;
}

export function emptyHealingMetrics(): HealingMetrics {
  return {
    calls: 0,
    cacheHits: 0,
    sourceRequests: 0,
    healed: 0,
    notFound: 0,
    mismatches: 0,
    retries: 0,
    totalMs: 0,
    batchMs: 0,
  };
}

/**
 * Healing is one function: found → the label (after checking its hash), not found → null, a transient failure →
 * bounded retry with jittered exponential backoff, anything else → a LabelHealingError that stops indexing. Never a
 * silently wrong or missing name.
 */
export class LabelHealer {
  private readonly source: LabelSource;
  private readonly cache: RecentMap<string, string | null>;
  private readonly inFlight = new Map<string, Promise<string | null>>();
  private readonly retry: RetryPolicy;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly warn: (message: string) => void;
  private readonly random: () => number;
  private readonly counters: HealingMetrics = emptyHealingMetrics();

  constructor(options: LabelHealerOptions) {
    this.source = options.source;
    this.cache = new RecentMap(options.cacheSize ?? 250_000);
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.warn = options.warn ?? ((message) => console.warn(message));
    this.random = options.random ?? Math.random;
  }

  metrics(): HealingMetrics {
    return { ...this.counters };
  }

  /** Opens the source ahead of the first heal (so start-up work overlaps the indexer's own). */
  async warmUp(): Promise<void> {
    await this.source.warmUp?.();
  }

  /** The label whose keccak256 is `labelhash`, or null when the label set does not know it. */
  async heal(labelhash: Hex): Promise<string | null> {
    const started = performance.now();
    this.counters.calls += 1;
    try {
      const key = labelhash.toLowerCase() as Hex;
      const cached = this.cache.get(key);
      if (cached !== undefined) {
        this.counters.cacheHits += 1;
        return cached;
      }
      let pending = this.inFlight.get(key);
      if (!pending) {
        pending = this.fetchOne(key).finally(() => this.inFlight.delete(key));
        this.inFlight.set(key, pending);
      }
      return await pending;
    } finally {
      this.counters.totalMs += performance.now() - started;
    }
  }

  /**
   * Heals many hashes with the source's batch lookup where it has one (≤ maxBatch per request) and fills the cache,
   * so later heal() calls are hits. While a batch is out, heal() of one of its hashes waits for it.
   */
  async healMany(labelhashes: readonly Hex[]): Promise<Map<Hex, string | null>> {
    const started = performance.now();
    const out = new Map<Hex, string | null>();
    try {
      // A Set: a prefetch window holds thousands of hashes, and a search of an array per hash was quadratic.
      const missingSet = new Set<Hex>();
      const waiting: [Hex, Promise<string | null>][] = [];
      for (const hash of labelhashes) {
        const key = hash.toLowerCase() as Hex;
        if (out.has(key) || missingSet.has(key)) continue;
        this.counters.calls += 1;
        const cached = this.cache.get(key);
        if (cached !== undefined) {
          this.counters.cacheHits += 1;
          out.set(key, cached);
        } else if (this.inFlight.has(key)) {
          waiting.push([key, this.inFlight.get(key)!]);
        } else {
          missingSet.add(key);
        }
      }
      const missing = [...missingSet];
      if (!this.source.lookupMany) {
        for (const key of missing) out.set(key, await this.heal(key));
      } else {
        const size = this.source.maxBatch ?? 1000;
        for (let i = 0; i < missing.length; i += size) {
          const chunk = missing.slice(i, i + size);
          const settle = this.registerInFlight(chunk);
          try {
            const answers = await this.withRetry(() => this.source.lookupMany!(chunk));
            for (const key of chunk) {
              const label = this.verify(key, answers.get(key) ?? null);
              this.cache.set(key, label);
              out.set(key, label);
            }
            settle(null);
          } catch (error) {
            settle(error);
            throw error;
          }
        }
      }
      for (const [key, pending] of waiting) out.set(key, await pending);
      return out;
    } finally {
      this.counters.batchMs += performance.now() - started;
    }
  }

  /** Placeholders so a heal() of a hash in a batch being fetched waits for the batch instead of asking again. */
  private registerInFlight(keys: Hex[]): (error: unknown) => void {
    const deferreds = keys.map((key) => {
      let resolve!: () => void;
      let reject!: (error: unknown) => void;
      const promise = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      const pending = promise.then(() => this.cache.get(key) ?? null);
      pending.catch(() => {});
      this.inFlight.set(key, pending);
      return { key, resolve, reject, pending };
    });
    return (error) => {
      for (const d of deferreds) {
        if (this.inFlight.get(d.key) === d.pending) this.inFlight.delete(d.key);
        if (error === null) d.resolve();
        else d.reject(error);
      }
    };
  }

  private async fetchOne(key: Hex): Promise<string | null> {
    const label = this.verify(key, await this.withRetry(() => this.source.lookup(key)));
    this.cache.set(key, label);
    return label;
  }

  private verify(labelhash: Hex, label: string | null): string | null {
    if (label === null) {
      this.counters.notFound += 1;
      return null;
    }
    if (labelhashOf(label) !== labelhash) {
      this.counters.mismatches += 1;
      this.counters.notFound += 1;
      this.warn(
        `${this.source.description} returned label ${JSON.stringify(label)} for ${labelhash}, but its labelhash is ${labelhashOf(label)}; treating the label as unknown`,
      );
      return null;
    }
    this.counters.healed += 1;
    return label;
  }

  private async withRetry<T>(attempt: () => Promise<T>): Promise<T> {
    const started = Date.now();
    let delay = this.retry.initialDelayMs;
    let attempts = 0;
    for (;;) {
      attempts += 1;
      this.counters.sourceRequests += 1;
      try {
        return await attempt();
      } catch (error) {
        if (!(error instanceof TransientLabelSourceError)) throw error;
        const elapsed = Date.now() - started;
        if (elapsed >= this.retry.totalMs) {
          throw new LabelHealingError(
            `${this.source.description} unreachable: ${attempts} attempts over ${Math.round(elapsed / 1000)} s failed ` +
              `(last: ${error.message}). Indexing stops here rather than index names it cannot heal; start the ` +
              `label service (or fix LABELS_SERVICE_URL / LABELS_DB) and restart.`,
            { cause: error },
          );
        }
        // Jittered (JITTER says why); the last wait is cut to the budget, so the service gets its whole budget to
        // come back.
        const wait = Math.min(Math.round(delay * (1 - JITTER * this.random())), this.retry.totalMs - elapsed);
        this.counters.retries += 1;
        this.warn(`${error.message}; retrying in ${wait} ms (attempt ${attempts})`);
        await this.sleep(wait);
        delay = Math.min(delay * 2, this.retry.maxDelayMs);
      }
    }
  }
}
