import { sql } from "drizzle-orm";
import { BoundedMap } from "../../lib/bounded-map";
import { decodeCheckpointBlock } from "../../lib/ponder-checkpoint";
import { rowsOf } from "../../lib/sql-rows";
import { INDEXING_ERROR_SQL } from "../../runtime/ponder-hooks";
import type { BlockLookup, BlockRef, SubgraphMeta } from "./at-block";
import type { BlockQuery, blockBudget, ChainBlocks } from "./chain-blocks";
import { BLOCK_ANSWERS_MAX } from "./limits";
import type { SubgraphDb } from "./loader";
import { perHeadMemo } from "./per-head";

/*
 * `_meta` from Ponder's own bookkeeping: `_ponder_checkpoint` (one row per chain, in the app's schema) holds the
 * latest indexed checkpoint, whose fixed-width digits encode the block timestamp and number. The block hash comes
 * from Ponder's sync store when it kept that block, else from the chain's RPC. Only finalized blocks' hashes are
 * cached: a reorg gives an unfinalized block number another hash, and `_meta` must never name an abandoned block.
 *
 * Ponder keeps no unfinalized block in its sync store, so the head's hash is the RPC's block at the indexed number.
 * During a reorg that is the new branch's block while the index still holds the abandoned one's rows (the chain has
 * moved, the revert has not run yet): the hash is answered only when that block's timestamp is the checkpoint's, and
 * is null otherwise, until the index reaches the new branch. On Ethereum a block replaced at the same number has
 * another slot, so another timestamp.
 */

interface BlockIdentity {
  hash: string | null;
  parentHash: string | null;
  timestamp?: number;
}

const UNKNOWN_BLOCK: BlockIdentity = { hash: null, parentHash: null };

export interface PonderMetaOptions {
  db: SubgraphDb;
  /** The ENS root chain, whose head `_meta.block` reports. */
  chainId: number;
  /** The chain, for blocks Ponder did not keep (chain-blocks.ts); absent: the index's alone. */
  chain?: ChainBlocks;
  /** What lookups that may reach the chain may cost (chain-blocks.ts `blockBudget`); absent: no bound. */
  budget?: ReturnType<typeof blockBudget>;
  deployment?: string;
}

export function ponderCheckpointMeta(options: PonderMetaOptions): () => Promise<SubgraphMeta> {
  const hashes = new BoundedMap<number, Promise<BlockIdentity>>(64);
  // The head not yet final, kept while Ponder's checkpoint names the same block: every query at a past block reads
  // the head, and its lookup (the sync store, else the RPC) was most of what such a query added.
  let recent: { checkpoint: string; found: Promise<BlockIdentity> } | undefined;
  const hashOf = (n: number, finalized: boolean, checkpoint: string) => {
    let p = hashes.get(n);
    if (!p) {
      if (!finalized && recent?.checkpoint === checkpoint) return recent.found;
      p = lookupHash(options, n).catch(() => UNKNOWN_BLOCK);
      if (!finalized) {
        const entry = { checkpoint, found: p };
        recent = entry;
        // Not found (a lagging node): asked again next time.
        void p.then((found) => found.hash === null && recent === entry && (recent = undefined));
        return p;
      }
      hashes.set(n, p);
      // A node that did not know the block yet (a lagging one behind a load balancer) is asked again next time.
      void p.then((found) => found.hash === null && hashes.get(n) === p && hashes.delete(n));
    }
    return p;
  };
  return async () => {
    // One statement, so the head and the error flag are read from one snapshot.
    const result = rowsOf(
      await options.db.execute(
        sql`SELECT checkpoint.latest_checkpoint, checkpoint.finalized_checkpoint, ${INDEXING_ERROR_SQL} AS indexing_error
            FROM (SELECT 1) AS one
            LEFT JOIN _ponder_checkpoint AS checkpoint ON checkpoint.chain_id::text = ${String(options.chainId)}`,
      ),
    );
    const checkpoint = (result[0]?.latest_checkpoint ?? undefined) as string | undefined;
    const finalizedCheckpoint = (result[0]?.finalized_checkpoint ?? undefined) as string | undefined;
    // Replicas (`ponder serve`) keep answering after the indexer stopped on an error, and say so as The Graph does.
    const hasIndexingErrors = result[0]?.indexing_error != null;
    let block: BlockRef | null = null;
    let finalizedNumber: number | undefined;
    if (checkpoint) {
      const { number, timestamp } = decodeCheckpointBlock(checkpoint);
      // Checkpoints are fixed-width digits ordered by time first: compared whole, not by block number, since with
      // omnichain ordering the finalized checkpoint may name another chain's block (Arbitrum's numbers dwarf mainnet's).
      const finalized = finalizedCheckpoint !== undefined && finalizedCheckpoint >= checkpoint;
      if (finalizedCheckpoint) {
        const final = decodeCheckpointBlock(finalizedCheckpoint);
        if (final.chainId === options.chainId) finalizedNumber = final.number;
      }
      // Ponder starts a chain's checkpoint just below its first block: nothing is indexed yet.
      if (number > 0) {
        const found = await hashOf(number, finalized, checkpoint);
        // Another block at the indexed number: the chain reorged and the index has not followed yet.
        const { hash, parentHash } = found.timestamp === timestamp ? found : UNKNOWN_BLOCK;
        block = { number, timestamp, hash, parentHash };
      }
    }
    return {
      block,
      finalizedNumber,
      deployment: options.deployment ?? `nameindex-${options.chainId}`,
      hasIndexingErrors,
    };
  };
}

async function lookupHash(options: PonderMetaOptions, n: number): Promise<BlockIdentity> {
  const block = await lookupBlock(options, { number: n });
  if (!block) return UNKNOWN_BLOCK;
  return { hash: block.hash, parentHash: block.parentHash ?? null, timestamp: block.timestamp ?? undefined };
}

/**
 * A block of the chain from Ponder's sync store, else from the chain; null when neither knows it. A lookup that may
 * reach the chain spends the budget first: for a hash that is also the sync store's scan (it has no index on hashes).
 */
async function lookupBlock(options: PonderMetaOptions, ref: BlockQuery): Promise<BlockRef | null> {
  const byHash = "hash" in ref;
  if (byHash) options.budget?.spend(ref);
  const where = byHash ? sql`hash = ${ref.hash.toLowerCase()}` : sql`number = ${ref.number}`;
  try {
    const r = rowsOf(
      await options.db.execute(
        sql`SELECT number, hash, parent_hash, timestamp FROM ponder_sync.blocks WHERE chain_id = ${options.chainId} AND ${where}`,
      ),
    );
    if (r[0]) {
      return {
        number: Number(r[0].number),
        hash: String(r[0].hash),
        parentHash: String(r[0].parent_hash),
        timestamp: Number(r[0].timestamp),
      };
    }
  } catch {
    // The sync store is not always readable from the API's connection; fall back to the chain.
  }
  if (!options.chain) return null;
  if (!byHash) options.budget?.spend(ref);
  return options.chain.block(ref);
}

/**
 * The ENS root chain's blocks for `block:` and `_change_block` (at-block.ts), by number and by hash. A final block's
 * answer is kept (BLOCK_ANSWERS_MAX at most); any other answer, "no such block" too, while the indexed head stays the
 * same block (a new block or a reorg empties them), so a client paging at one block, or repeating a hash the chain
 * does not have, asks the chain once per head, not per request. Refusals and failures are not kept.
 */
export function ponderBlockLookup(options: PonderMetaOptions): BlockLookup {
  const finalBlocks = new BoundedMap<string, BlockRef>(2 * BLOCK_ANSWERS_MAX);
  const answers = perHeadMemo<string, BlockRef | null>(BLOCK_ANSWERS_MAX);
  const keep = (block: BlockRef) => {
    for (const key of [`n${block.number}`, `h${block.hash}`]) finalBlocks.set(key, block);
  };
  const find = (key: string, query: BlockQuery, head: BlockRef, finalizedNumber: number) => {
    const known = finalBlocks.get(key);
    if (known) return Promise.resolve(known);
    return answers(head, key, async () => {
      const block = await lookupBlock(options, query);
      if (block && block.number <= finalizedNumber) keep(block);
      // Found by number, kept by hash too: the next page of a client that read its hash pins it by hash.
      else if (block?.hash && "number" in query) void answers(head, `h${block.hash}`, async () => block);
      return block;
    });
  };
  return {
    byNumber: (number, head, finalizedNumber) => find(`n${number}`, { number }, head, finalizedNumber),
    byHash: (hash, head, finalizedNumber) => find(`h${hash.toLowerCase()}`, { hash }, head, finalizedNumber),
  };
}
