import { sql } from "drizzle-orm";
import { rowsOf } from "../../lib/sql-rows";
import { INDEXING_ERROR_SQL } from "../../runtime/ponder-hooks";
import type { WriteGeneration } from "./pglite-writes";
import type { SqlDb } from "./read-db";

/*
 * The /subgraph query-result cache, after graph-node's (GRAPH_QUERY_CACHE_BLOCKS / GRAPH_QUERY_CACHE_MAX_MEM and its
 * "herd" cache): an answer is kept for the indexed head it was computed at and served only while that is still the
 * head; concurrent identical queries share one execution. We serve only the head (a `block:` naming another block is
 * an error), so one generation is kept, like graph-node's default of one block: a new head empties the cache.
 *
 * The head is a token read from Ponder's `_ponder_checkpoint`: every chain's latest checkpoint and the row's `xmin`
 * (the transaction that last wrote it). Ponder rewrites the row after every block it indexes, so the token changes
 * with each indexed block, and also when a reorg brings a block with the same number (and even the same checkpoint
 * string) on another branch: that block's write of the row has a new xmin. So no answer computed on an abandoned
 * branch is served once the new branch's first block is indexed. (Ponder reverts the abandoned rows first and writes
 * the checkpoint with the new branch's first block a few milliseconds later; in between, a cached answer still shows
 * the old head's data, as `_meta` still names it.) The block's rows and the checkpoint commit in one transaction: on
 * PostgreSQL by Ponder, on PGlite by the ponder patch (Ponder ran each statement committed alone there), whose API reads
 * wait until no indexer transaction is open, so no answer is computed from a block half written.
 *
 * Reading the token is one small SELECT, shared by every request that arrives in the same turn of the event loop
 * (it starts after all of them arrived, so none can miss a block committed before it asked). On PGlite that SELECT
 * queues behind the indexer's statements on PGlite's one backend (~1 ms, more while indexing), so the indexer's own
 * API keys the token on the in-process write counter (../pglite-writes.ts, `untilNextWrite`): the SQL token is
 * read again only once some call that may write has completed since the last read. Why that is safe:
 * - The counter moves only after a write has completed (committed, and visible to any later statement), in the first
 *   microtask after it settles. A token read that starts after generation g was observed sees every write completed
 *   before that; while the counter still shows g, no other write has completed, so that token is the current one.
 *   Nothing outside the process can learn of a write before the counter moved (that takes another event-loop turn).
 * - So an answer is never cached under a token newer than the data it was computed from. An answer computed on newer
 *   data than its token (a write completed while it ran) is served only until the counter moves, which it already has:
 *   the next request reads the token again, and a new token empties the cache.
 * - PGlite runs one call at a time, and the API's reads wait for the indexer's open transaction to end (the ponder
 *   patch's `gatePgliteReads`), so a read never sees a transaction half done.
 * - Writes that do not change the token (Ponder's heartbeat UPDATE of `_ponder_meta`, the sync's `ponder_sync` rows)
 *   cost one token read, and the cache stays.
 * PostgreSQL (and API replicas, `ponder serve`) keep the SQL token on every turn: other processes write there.
 */

export interface QueryCacheOptions {
  /** Bytes of cached answers (keys counted as UTF-16, bodies as the UTF-8 bytes kept) the cache may hold. */
  maxBytes: number;
  /** The indexed head's token; a different token means other data. */
  head: () => Promise<string>;
}

export type CacheOutcome = "hit" | "miss" | "shared";

interface Entry {
  encoded: Buffer;
  bytes: number;
}

/**
 * A cached answer (never an error): its serialized body as the UTF-8 bytes sent, so that answering it again neither
 * measures nor encodes the text (a 26 KB answer, 8,000 times a second, was that much copying per answer).
 */
export interface CachedAnswer {
  encoded: Buffer;
  outcome: CacheOutcome;
}

/** Per-entry overhead beyond the key and body characters (Map slot, entry object, string headers). */
const ENTRY_OVERHEAD = 128;

export class QueryCache {
  private generation: string | undefined;
  private entries = new Map<string, Entry>();
  private inflight = new Map<string, Promise<unknown>>();
  private bytesUsed = 0;
  /** Counters for tests and operators. */
  readonly stats = { hits: 0, misses: 0, shared: 0, evictions: 0, flushes: 0 };

  constructor(private readonly options: QueryCacheOptions) {}

  get bytes(): number {
    return this.bytesUsed;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The current head's token. */
  head(): Promise<string> {
    return this.options.head();
  }

  /**
   * The answer for `key` at `head`: from the cache, from an identical request already running, or from `compute`.
   * `compute` returns the serialized body and whether it may be kept (answers with errors are not).
   */
  async run<T extends { json: string; cacheable: boolean }>(
    head: string,
    key: string,
    compute: () => Promise<T>,
  ): Promise<{ result: T | CachedAnswer; outcome: CacheOutcome }> {
    if (head !== this.generation) this.flush(head);
    const entry = this.entries.get(key);
    if (entry) {
      // Refresh its place: the map iterates oldest first, which is what gets evicted.
      this.entries.delete(key);
      this.entries.set(key, entry);
      this.stats.hits++;
      return { result: { encoded: entry.encoded, outcome: "hit" }, outcome: "hit" };
    }
    const herdKey = `${head}\n${key}`;
    const running = this.inflight.get(herdKey) as Promise<T> | undefined;
    if (running) {
      this.stats.shared++;
      return { result: await running, outcome: "shared" };
    }
    this.stats.misses++;
    const promise = compute();
    this.inflight.set(herdKey, promise);
    try {
      const result = await promise;
      // Kept only if the head has not moved on meanwhile: an answer for an older head is never served again.
      if (result.cacheable && this.generation === head) this.store(key, result.json);
      return { result, outcome: "miss" };
    } finally {
      this.inflight.delete(herdKey);
    }
  }

  private flush(head: string) {
    if (this.entries.size > 0) this.stats.flushes++;
    this.generation = head;
    this.entries.clear();
    this.bytesUsed = 0;
  }

  private store(key: string, json: string) {
    // Its own memory, not a slice of Node's shared 8 KiB pool: a small answer would otherwise keep its whole slab
    // alive after its neighbours are evicted, and the budget would undercount.
    const encoded = Buffer.allocUnsafeSlow(Buffer.byteLength(json, "utf8"));
    encoded.write(json, "utf8");
    const bytes = 2 * key.length + encoded.length + ENTRY_OVERHEAD;
    // One answer may take at most a quarter of the budget, so a few huge answers cannot flush everything else.
    if (bytes > this.options.maxBytes / 4) return;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytesUsed -= old.bytes;
    }
    this.entries.set(key, { encoded, bytes });
    this.bytesUsed += bytes;
    while (this.bytesUsed > this.options.maxBytes) {
      const [oldestKey, oldest] = this.entries.entries().next().value!;
      this.entries.delete(oldestKey);
      this.bytesUsed -= oldest.bytes;
      this.stats.evictions++;
    }
  }
}

/**
 * Shares one call of `read` among the callers of one event-loop turn. Each caller gets a read that started after it
 * called, never one already in flight, so it sees everything committed before it asked.
 */
export function coalesce<T>(read: () => Promise<T>): () => Promise<T> {
  let next: Promise<T> | undefined;
  return () => {
    if (!next) {
      next = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        // Later callers wait for a read of their own.
        next = undefined;
        return read();
      });
    }
    return next;
  };
}

/**
 * The head token from Ponder's `_ponder_checkpoint` (every chain's checkpoint and the transaction that wrote it), and
 * whether the indexer stopped on an error (`_meta.hasIndexingErrors`, recorded in `_ponder_meta` without touching the
 * checkpoints): one read per event-loop turn, shared by that turn's callers.
 */
export function ponderHeadToken(db: SqlDb): () => Promise<string> {
  return coalesce(async () => {
    const rows = rowsOf(
      await db.execute(
        sql`SELECT (SELECT string_agg(chain_id::text || ':' || latest_checkpoint || ':' || xmin::text, ',' ORDER BY chain_id) FROM _ponder_checkpoint)
              || CASE WHEN ${INDEXING_ERROR_SQL} IS NOT NULL THEN ':stopped' ELSE '' END AS head`,
      ),
    );
    return String(rows[0]?.head ?? "");
  });
}

/**
 * `read`'s answer, read again only when a write completed since the last read (see the module comment for why that
 * is safe): the head token, `_meta`. `read` must not itself count as a write. An answer `keep` refuses (one that may
 * change without a write, like a block hash the RPC did not know yet) is read again next time.
 */
export function untilNextWrite<T>(
  read: () => Promise<T>,
  writes: WriteGeneration,
  keep: (value: T) => boolean = () => true,
): () => Promise<T> {
  let last: { generation: number; value: Promise<T> } | undefined;
  return () => {
    const generation = writes.generation;
    if (last?.generation === generation) return last.value;
    // The read starts after this moment, so it sees every write completed up to `generation`.
    const value = read();
    const entry = { generation, value };
    last = entry;
    // A failed read is not remembered: the next request reads again.
    value.then(
      (v) => {
        if (!keep(v) && last === entry) last = undefined;
      },
      () => {
        if (last === entry) last = undefined;
      },
    );
    return value;
  };
}

/** JSON with object keys sorted, so `{a, b}` and `{b, a}` are one cache key. */
export function stableJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`).join(",")}}`;
}
