import { sql } from "drizzle-orm";
import { INDEXING_ERROR_SQL } from "../../runtime/ponder-hooks";
import type { SubgraphDb } from "./loader";
import type { BlockRef, SubgraphMeta } from "./schema";

/*
 * `_meta` from Ponder's own bookkeeping: `_ponder_checkpoint` (one row per chain, in the app's schema) holds the
 * latest indexed checkpoint, whose fixed-width digits encode the block timestamp and number. The block hash comes
 * from Ponder's sync store when it kept that block, else from the chain's RPC. Only finalized blocks' hashes are
 * cached: a reorg gives an unfinalized block number another hash, and `_meta` must never name an abandoned block.
 */

/** Checkpoint layout (ponder/src/utils/checkpoint.ts): timestamp(10) chainId(16) blockNumber(16) … */
export function decodeCheckpointBlock(checkpoint: string): { number: number; timestamp: number } {
  return { timestamp: Number(checkpoint.slice(0, 10)), number: Number(checkpoint.slice(26, 42)) };
}

interface BlockHashSource {
  getBlock(args: { blockNumber: bigint }): Promise<{ hash: string | null; parentHash: string }>;
}

export interface PonderMetaOptions {
  db: SubgraphDb;
  /** The ENS root chain, whose head `_meta.block` reports. */
  chainId: number;
  /** The chain's viem client, for block hashes Ponder did not keep. */
  publicClient?: BlockHashSource;
  deployment?: string;
}

const rows = (r: unknown) =>
  (Array.isArray(r) ? r : ((r as { rows?: unknown[] }).rows ?? [])) as Record<string, unknown>[];

export function ponderCheckpointMeta(options: PonderMetaOptions): () => Promise<SubgraphMeta> {
  const hashes = new Map<number, Promise<{ hash: string | null; parentHash: string | null }>>();
  const hashOf = (n: number, finalized: boolean) => {
    let p = hashes.get(n);
    if (!p) {
      p = lookupHash(options, n).catch(() => ({ hash: null, parentHash: null }));
      if (!finalized) return p;
      hashes.set(n, p);
      // A node that did not know the block yet (a lagging one behind a load balancer) is asked again next time.
      void p.then((found) => found.hash === null && hashes.get(n) === p && hashes.delete(n));
      if (hashes.size > 64) hashes.delete(hashes.keys().next().value!);
    }
    return p;
  };
  return async () => {
    // One statement, so the head and the error flag are read from one snapshot.
    const result = rows(
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
    if (checkpoint) {
      const { number, timestamp } = decodeCheckpointBlock(checkpoint);
      // Checkpoints are fixed-width digits ordered by time first: compared whole, not by block number, since with
      // omnichain ordering the finalized checkpoint may name another chain's block (Arbitrum's numbers dwarf mainnet's).
      const finalized = finalizedCheckpoint !== undefined && finalizedCheckpoint >= checkpoint;
      // Ponder starts a chain's checkpoint just below its first block: nothing is indexed yet.
      if (number > 0) block = { number, timestamp, ...(await hashOf(number, finalized)) };
    }
    return { block, deployment: options.deployment ?? `nameindex-${options.chainId}`, hasIndexingErrors };
  };
}

async function lookupHash(options: PonderMetaOptions, n: number) {
  try {
    const r = rows(
      await options.db.execute(
        sql`SELECT hash, parent_hash FROM ponder_sync.blocks WHERE chain_id = ${options.chainId} AND number = ${n}`,
      ),
    );
    if (r[0]) return { hash: String(r[0].hash), parentHash: String(r[0].parent_hash) };
  } catch {
    // The sync store is not always readable from the API's connection; fall back to the RPC.
  }
  if (!options.publicClient) return { hash: null, parentHash: null };
  const b = await options.publicClient.getBlock({ blockNumber: BigInt(n) });
  return { hash: b.hash, parentHash: b.parentHash };
}
