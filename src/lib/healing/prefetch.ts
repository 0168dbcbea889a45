import { type Address, createPublicClient, type Hex, http, numberToHex, parseAbiItem, toEventSelector } from "viem";
import type { LabelHealer } from "./healer";

/** At the chain head, how often the head is read again (instead of once per registry event). */
const HEAD_REREAD_MS = 1_000;

const NEW_OWNER_TOPIC = toEventSelector(parseAbiItem("event NewOwner(bytes32 indexed node, bytes32 indexed label, address owner)"));

export interface LabelPrefetcherOptions {
  healer: LabelHealer;
  rpcUrl: string;
  /** Registries whose NewOwner events carry the labelhashes the handlers are about to heal. */
  registries: Address[];
  /** Blocks per eth_getLogs. */
  windowBlocks?: number;
  /** How far ahead of the block being indexed to keep the cache filled. */
  aheadBlocks?: number;
  warn?: (message: string) => void;
}

/**
 * Keeps the healer's cache ahead of indexing over HTTP: reads the registries' upcoming NewOwner labelhashes with
 * eth_getLogs and heals them through the batch endpoint (1000 per request instead of one round trip each).
 * It runs beside the handlers, never inside them, and only warms the cache: a failure disables it and healing
 * goes on one label at a time, with its own retries and errors.
 */
export class LabelPrefetcher {
  private readonly client;
  private readonly window: bigint;
  private readonly ahead: bigint;
  private readonly warn: (message: string) => void;
  private next: bigint | undefined;
  /** The chain head as last read, and when: once the prefetch has caught up with it, it is read again at most once a second. */
  private head: bigint | undefined;
  private headReadAt = 0;
  private running = false;
  private disabled = false;

  constructor(private readonly options: LabelPrefetcherOptions) {
    this.client = createPublicClient({ transport: http(options.rpcUrl, { retryCount: 2 }) });
    this.window = BigInt(options.windowBlocks ?? 1000);
    this.ahead = BigInt(options.aheadBlocks ?? 2000);
    this.warn = options.warn ?? ((message) => console.warn(message));
  }

  /**
   * The handlers are at `block` (or, at start-up, will start there); fetch further ahead if the cache does not reach
   * far enough. Blocks behind `block` are not fetched: their events are indexed already. Never blocks.
   */
  notify(block: bigint): void {
    if (this.disabled || this.running) return;
    if (this.next === undefined || this.next < block) this.next = block;
    if (this.next > block + this.ahead) return;
    if (this.head !== undefined && this.next > this.head && Date.now() - this.headReadAt < HEAD_REREAD_MS) return;
    this.running = true;
    void this.fill(block).finally(() => {
      this.running = false;
    });
  }

  private async fill(block: bigint): Promise<void> {
    try {
      if (this.head === undefined || this.next! > this.head) {
        this.head = await this.client.getBlockNumber({ cacheTime: 0 });
        this.headReadAt = Date.now();
      }
      const head = this.head;
      while (this.next! <= block + this.ahead && this.next! <= head) {
        const from = this.next!;
        const to = from + this.window - 1n < head ? from + this.window - 1n : head;
        // Raw logs: the labelhash is the event's third topic, and decoding every log with the ABI cost more than the
        // healing (~0.4 s of the indexer's thread for a 10,000-name backfill's first window).
        const logs = await this.client.request({
          method: "eth_getLogs",
          params: [{ address: this.options.registries, topics: [NEW_OWNER_TOPIC], fromBlock: numberToHex(from), toBlock: numberToHex(to) }],
        });
        const labelhashes = logs.map((log) => log.topics[2]).filter((h): h is Hex => typeof h === "string" && h.length === 66);
        if (labelhashes.length > 0) await this.options.healer.healMany(labelhashes);
        this.next = to + 1n;
      }
    } catch (error) {
      this.disabled = true;
      this.warn(`Label prefetching stopped (healing continues label by label): ${(error as Error).message}`);
    }
  }
}
