/*
 * The omnichain indexing status (docs/api.md, "Configuration, status and the OpenAPI description"), derived from plain per-chain facts so the rules stay in one
 * pure, tested place. Gathering the facts (database, metrics, RPC) lives in gather.ts.
 */

export interface BlockRef {
  number: number;
  timestamp: number;
}

export interface ChainFacts {
  chainId: number;
  startBlock: BlockRef;
  /** Set when END_BLOCK_<chainId> bounds the chain. */
  endBlock?: BlockRef;
  /** The last block whose events are indexed; absent before any. */
  latestIndexedBlock?: BlockRef;
  /** The block the backfill runs to (absent once unknown, e.g. on an API replica after the backfill). */
  backfillEndBlock?: BlockRef;
  /** The newest block the indexer has seen on the chain. */
  latestKnownBlock?: BlockRef;
  /** Ponder finished the backfill of every chain and follows the heads. */
  historicalComplete: boolean;
}

export type ChainSnapshot =
  | { chainStatus: "chain-queued"; config: ChainConfigRef }
  | { chainStatus: "chain-backfill"; config: ChainConfigRef; latestIndexedBlock: BlockRef; backfillEndBlock: BlockRef }
  | { chainStatus: "chain-following"; config: ChainConfigRef; latestIndexedBlock: BlockRef; latestKnownBlock: BlockRef }
  | { chainStatus: "chain-completed"; config: ChainConfigRef; latestIndexedBlock: BlockRef };

export type ChainConfigRef =
  | { configType: "indefinite"; startBlock: BlockRef }
  | { configType: "definite"; startBlock: BlockRef; endBlock: BlockRef };

export type OmnichainStatus =
  | "omnichain-unstarted"
  | "omnichain-backfill"
  | "omnichain-following"
  | "omnichain-completed";

export interface IndexingSnapshot {
  strategy: "omnichain";
  slowestChainIndexingCursor: number;
  snapshotTime: number;
  omnichainSnapshot: {
    omnichainStatus: OmnichainStatus;
    chains: Record<string, ChainSnapshot>;
    omnichainIndexingCursor: number;
  };
}

export interface IndexingStatusResponse {
  responseCode: "ok";
  realtimeProjection: { projectedAt: number; worstCaseDistance: number; snapshot: IndexingSnapshot };
}

export function chainSnapshot(facts: ChainFacts): ChainSnapshot {
  const config: ChainConfigRef = facts.endBlock
    ? { configType: "definite", startBlock: facts.startBlock, endBlock: facts.endBlock }
    : { configType: "indefinite", startBlock: facts.startBlock };
  const latest = facts.latestIndexedBlock;
  if (!latest || latest.number < facts.startBlock.number) return { chainStatus: "chain-queued", config };
  if (facts.endBlock && latest.number >= facts.endBlock.number) {
    return { chainStatus: "chain-completed", config, latestIndexedBlock: latest };
  }
  if (facts.historicalComplete && !facts.endBlock) {
    const known =
      facts.latestKnownBlock && facts.latestKnownBlock.number >= latest.number ? facts.latestKnownBlock : latest;
    return { chainStatus: "chain-following", config, latestIndexedBlock: latest, latestKnownBlock: known };
  }
  const target = facts.endBlock ?? facts.backfillEndBlock;
  const backfillEndBlock = target && target.number >= latest.number ? target : latest;
  return { chainStatus: "chain-backfill", config, latestIndexedBlock: latest, backfillEndBlock };
}

/** Any following → following; some backfill and the rest queued/backfill/completed → backfill; all queued → unstarted; all completed → completed. */
export function omnichainStatus(chains: ChainSnapshot[]): OmnichainStatus {
  const statuses = chains.map((c) => c.chainStatus);
  if (statuses.includes("chain-following")) return "omnichain-following";
  if (statuses.includes("chain-backfill")) return "omnichain-backfill";
  if (statuses.length > 0 && statuses.every((s) => s === "chain-completed")) return "omnichain-completed";
  if (statuses.every((s) => s === "chain-queued")) return "omnichain-unstarted";
  // Completed and queued chains only: the queued ones are about to start.
  return "omnichain-backfill";
}

export function buildSnapshot(facts: ChainFacts[], snapshotTime: number): IndexingSnapshot {
  const chains = facts.map(chainSnapshot);
  const status = omnichainStatus(chains);
  const started = chains.filter(
    (c): c is Exclude<ChainSnapshot, { chainStatus: "chain-queued" }> => c.chainStatus !== "chain-queued",
  );
  const cursor =
    status === "omnichain-unstarted" || started.length === 0
      ? Math.min(...facts.map((f) => f.startBlock.timestamp)) - 1
      : Math.max(...started.map((c) => c.latestIndexedBlock.timestamp));
  return {
    strategy: "omnichain",
    slowestChainIndexingCursor: cursor,
    snapshotTime,
    omnichainSnapshot: {
      omnichainStatus: status,
      chains: Object.fromEntries(facts.map((f, i) => [String(f.chainId), chains[i]])),
      omnichainIndexingCursor: cursor,
    },
  };
}

/** Re-projected on every request: the snapshot is cached, the clock is not. */
export function projectRealtime(snapshot: IndexingSnapshot, now: number): IndexingStatusResponse {
  const projectedAt = Math.max(now, snapshot.snapshotTime);
  return {
    responseCode: "ok",
    realtimeProjection: {
      projectedAt,
      worstCaseDistance: projectedAt - snapshot.slowestChainIndexingCursor,
      snapshot,
    },
  };
}
