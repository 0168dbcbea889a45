import {
  type Address,
  BaseError,
  createPublicClient,
  type Hex,
  numberToHex,
  parseAbiItem,
  toEventSelector,
} from "viem";
import { rpcTransport } from "../rpc-transport";
import type { LabelHealer } from "./healer";

/** At the chain head, how often the head is read again (instead of once per registry event). */
const HEAD_REREAD_MS = 1_000;
/** Logs one eth_getLogs should return: the window shrinks past it and grows below half of it. */
const TARGET_LOGS_PER_REQUEST = 5_000;
/** After a failure the next try waits this long, doubling per consecutive failure up to MAX_RETRY_DELAY_MS. */
const FIRST_RETRY_DELAY_MS = 250;
const MAX_RETRY_DELAY_MS = 60_000;
/**
 * Labelhashes fetched ahead of the handlers at most: far below the healer's cache (250,000 by default), so a dense
 * range (a devnet block holds thousands) does not evict labels before their events are indexed.
 */
const MAX_AHEAD_LOGS = 50_000;
/** Consecutive failures before a warning: a provider's range limit is usually found in a halving or two, silently. */
const WARN_AFTER_FAILURES = 3;
/** Successful windows after which a window that failed may be tried again (its refusal may have been transient). */
const SUCCESSES_BEFORE_RAISING_CEILING = 100;

const NEW_OWNER_TOPIC = toEventSelector(
  parseAbiItem("event NewOwner(bytes32 indexed node, bytes32 indexed label, address owner)"),
);

export interface LabelPrefetcherOptions {
  healer: LabelHealer;
  rpcUrl: string;
  /** Registries whose NewOwner events carry the labelhashes the handlers are about to heal. */
  registries: Address[];
  /** Blocks of the first eth_getLogs; later windows adapt to the logs they return. */
  windowBlocks?: number;
  /** The largest window, however few logs a window returns. */
  maxWindowBlocks?: number;
  /** How far ahead of the block being indexed to keep the cache filled, in blocks and in labelhashes. */
  aheadBlocks?: number;
  maxAheadLogs?: number;
  warn?: (message: string) => void;
  /** The clock retries are timed by (tests). */
  now?: () => number;
}

/**
 * Keeps the healer's cache ahead of indexing over HTTP: reads the registries' upcoming NewOwner labelhashes with
 * eth_getLogs and heals them through the batch endpoint (1000 per request instead of one round trip each).
 * It runs beside the handlers, never inside them, and only warms the cache, so a failure costs speed, not
 * correctness: healing goes on one label at a time meanwhile. A failed window is tried again, halved (a provider's
 * range or response-size limit, a timeout), after a delay that doubles while failures continue; one bad answer
 * must not turn batching off for the rest of a mainnet backfill, where every label healed alone is a round trip
 * inside the indexing transaction.
 */
export class LabelPrefetcher {
  private readonly client;
  private readonly ahead: bigint;
  private readonly maxWindow: bigint;
  private readonly maxAheadLogs: number;
  private readonly warn: (message: string) => void;
  private readonly now: () => number;
  private window: bigint;
  /** The largest window to try: below the last one refused, raised again after a run of successes. */
  private ceiling: bigint;
  private successes = 0;
  private next: bigint | undefined;
  /** The chain head as last read, and when: once the prefetch has caught up with it, it is read again at most once a second. */
  private head: bigint | undefined;
  private headReadAt = 0;
  private running = false;
  /** Windows fetched and not yet passed by the handlers: their last block and how many logs they held. */
  private readonly fetchedAhead: { to: bigint; logs: number }[] = [];
  private logsAhead = 0;
  private failures = 0;
  private warned = false;
  private retryAt = 0;
  /** Counters since start, for the operator's figures (a stalled prefetch shows as failures and no requests). */
  readonly stats = { requests: 0, failures: 0 };

  constructor(private readonly options: LabelPrefetcherOptions) {
    this.client = createPublicClient({ transport: rpcTransport(options.rpcUrl, "label-prefetch", { retryCount: 0 }) });
    this.window = BigInt(options.windowBlocks ?? 10);
    this.maxWindow = BigInt(options.maxWindowBlocks ?? 10_000);
    this.ceiling = this.maxWindow;
    this.maxAheadLogs = options.maxAheadLogs ?? MAX_AHEAD_LOGS;
    this.ahead = BigInt(options.aheadBlocks ?? 2000);
    this.warn = options.warn ?? ((message) => console.warn(message));
    this.now = options.now ?? Date.now;
  }

  /**
   * The handlers are at `block` (or, at start-up, will start there); fetch further ahead if the cache does not reach
   * far enough. Blocks behind `block` are not fetched: their events are indexed already. Never blocks.
   */
  notify(block: bigint): void {
    if (this.running) return;
    if (this.next === undefined || this.next < block) this.next = block;
    if (!this.hasRoomAhead(block)) return;
    const now = this.now();
    if (now < this.retryAt) return;
    if (this.head !== undefined && this.next > this.head && now - this.headReadAt < HEAD_REREAD_MS) return;
    this.running = true;
    void this.fill(block).finally(() => {
      this.running = false;
    });
  }

  private async fill(block: bigint): Promise<void> {
    try {
      if (this.head === undefined || this.next! > this.head) {
        this.head = await this.client.getBlockNumber({ cacheTime: 0 });
        this.headReadAt = this.now();
      }
      const head = this.head;
      while (this.next! <= head && this.hasRoomAhead(block)) {
        const from = this.next!;
        const to = from + this.window - 1n < head ? from + this.window - 1n : head;
        // Raw logs: the labelhash is the event's third topic, and decoding every log with the ABI cost more than the
        // healing (~0.4 s of the indexer's thread for a 10,000-name backfill's first window).
        let logs;
        try {
          logs = await this.client.request({
            method: "eth_getLogs",
            params: [
              {
                address: this.options.registries,
                topics: [NEW_OWNER_TOPIC],
                fromBlock: numberToHex(from),
                toBlock: numberToHex(to),
              },
            ],
          });
        } catch (error) {
          // Only the provider's refusal of this window says anything about its size.
          this.shrinkWindow();
          throw error;
        }
        this.stats.requests += 1;
        const labelhashes = logs
          .map((log) => log.topics[2])
          .filter((h): h is Hex => typeof h === "string" && h.length === 66);
        if (labelhashes.length > 0) await this.options.healer.healMany(labelhashes);
        // The window counts as done (and ahead) only once its labels are cached: a failed batch fetches it again.
        this.succeeded();
        this.window = nextWindow(to - from + 1n, logs.length, this.ceiling);
        this.fetchedAhead.push({ to, logs: logs.length });
        this.logsAhead += logs.length;
        this.next = to + 1n;
      }
    } catch (error) {
      this.failed(error);
    }
  }

  /** Whether the cache may be filled further ahead of `block`, within both bounds (blocks and logs). */
  private hasRoomAhead(block: bigint): boolean {
    while (this.fetchedAhead.length > 0 && this.fetchedAhead[0]!.to < block)
      this.logsAhead -= this.fetchedAhead.shift()!.logs;
    return this.next! <= block + this.ahead && this.logsAhead < this.maxAheadLogs;
  }

  /** Halves the window and keeps the half as the ceiling (the next growth stops below the refused size). */
  private shrinkWindow(): void {
    this.successes = 0;
    this.ceiling = this.window > 1n ? this.window / 2n : 1n;
    this.window = this.ceiling;
  }

  /** Any failure (the provider, the head, the label service's batch): wait before the next try, longer each time. */
  private failed(error: unknown): void {
    this.stats.failures += 1;
    this.failures += 1;
    const delay = Math.min(MAX_RETRY_DELAY_MS, FIRST_RETRY_DELAY_MS * 2 ** (this.failures - 1));
    this.retryAt = this.now() + delay;
    // One line when a failure lasts (not for each halving that finds a provider's range limit), then every tenth.
    if (this.failures === WARN_AFTER_FAILURES || (this.failures > WARN_AFTER_FAILURES && this.failures % 10 === 0)) {
      this.warned = true;
      this.warn(
        `Label prefetching failed ${this.failures} times in a row (healing goes on label by label meanwhile); next try in ${delay} ms with ${this.window} blocks: ${describe(error)}`,
      );
    }
  }

  private succeeded(): void {
    if (this.warned)
      this.warn(`Label prefetching resumed after ${this.failures} failures, ${this.window} blocks per request`);
    this.failures = 0;
    this.warned = false;
    this.retryAt = 0;
    this.successes += 1;
    if (this.successes % SUCCESSES_BEFORE_RAISING_CEILING === 0 && this.ceiling < this.maxWindow) {
      this.ceiling = this.ceiling * 2n < this.maxWindow ? this.ceiling * 2n : this.maxWindow;
    }
  }
}

/** One line: viem's errors carry the provider's words in `details`, and their message adds the request body. */
function describe(error: unknown): string {
  const text =
    error instanceof BaseError
      ? `${error.shortMessage} ${error.details ?? ""}`
      : String((error as Error)?.message ?? error).split("\n")[0];
  return text!.replace(/\s+/g, " ").trim();
}

/** The next window: scaled to TARGET_LOGS_PER_REQUEST by this one's density, at most doubled, within [1, max]. */
export function nextWindow(blocks: bigint, logs: number, max: bigint): bigint {
  let next = blocks;
  if (logs > TARGET_LOGS_PER_REQUEST) next = (blocks * BigInt(TARGET_LOGS_PER_REQUEST)) / BigInt(logs);
  else if (logs < TARGET_LOGS_PER_REQUEST / 2) next = blocks * 2n;
  if (next < 1n) next = 1n;
  return next > max ? max : next;
}
