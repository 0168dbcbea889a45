import { createPublicClient, type PublicClient } from "viem";
import type { AppConfig } from "../../config";
import { decodeCheckpointBlock } from "../../lib/ponder-checkpoint";
import { rpcTransport } from "../../lib/rpc-transport";
import { composeContracts } from "../../plugins/compose";
import type { BlockRef, ChainFacts } from "../shared/indexing-snapshot";
import type { SyncGaugeReader } from "./sync-gauges";

/** A read-only SQL runner over the indexer's schema (Ponder's API `db`, or `pg` in tests). */
export type SqlReader = (query: string) => Promise<Record<string, unknown>[]>;

interface ChainPlan {
  chainId: number;
  chainName: string;
  startBlock: number;
  endBlock?: number;
}

/**
 * Collects the per-chain facts the snapshot is derived from: checkpoints and readiness from the database (so API
 * replicas see what the indexer wrote), backfill targets and chain heads from Ponder's sync gauges, and block
 * timestamps from the chain (cached: a block's timestamp never changes).
 */
export class IndexingFactsGatherer {
  private readonly plans: ChainPlan[];
  private readonly clients = new Map<number, PublicClient>();
  private readonly timestamps = new Map<string, number>();

  constructor(
    private readonly config: AppConfig,
    private readonly readSql: SqlReader,
    private readonly readGauges: SyncGaugeReader,
  ) {
    this.plans = planChains(config);
  }

  async gather(): Promise<ChainFacts[] | undefined> {
    const schema = this.config.databaseSchema.replaceAll('"', '""');
    let checkpoints: Record<string, unknown>[];
    let meta: Record<string, unknown>[];
    try {
      checkpoints = await this.readSql(`select chain_id, latest_checkpoint from "${schema}"."_ponder_checkpoint"`);
      meta = await this.readSql(`select value from "${schema}"."_ponder_meta" where key = 'app'`);
    } catch (error) {
      // The indexer has not created its tables yet: no status exists. Any other failure is a failed gather (the
      // service keeps serving the previous snapshot), not a status that vanished.
      if (isUndefinedTable(error)) return undefined;
      throw error;
    }
    if (checkpoints.length === 0) return undefined;
    const latestByChain = new Map(
      checkpoints.map((row) => [Number(row.chain_id), decodeCheckpointBlock(String(row.latest_checkpoint))]),
    );
    const appMeta = (meta[0]?.value ?? {}) as { is_ready?: number };
    const historicalComplete = appMeta.is_ready === 1;
    const { totalBlocks, syncBlock, syncTimestamp } = await this.readGauges();

    return Promise.all(
      this.plans.map(async (plan): Promise<ChainFacts> => {
        const facts: ChainFacts = {
          chainId: plan.chainId,
          startBlock: await this.blockRef(plan.chainId, plan.startBlock),
          historicalComplete,
        };
        if (plan.endBlock !== undefined) facts.endBlock = await this.blockRef(plan.chainId, plan.endBlock);
        const latest = latestByChain.get(plan.chainId);
        if (latest && latest.number >= plan.startBlock) facts.latestIndexedBlock = latest;
        const total = totalBlocks.get(plan.chainName);
        if (total !== undefined && total > 0) {
          facts.backfillEndBlock = await this.blockRef(plan.chainId, plan.startBlock + total - 1);
        }
        const known = syncBlock.get(plan.chainName);
        const knownTimestamp = syncTimestamp.get(plan.chainName);
        if (known !== undefined && known > 0) {
          facts.latestKnownBlock = {
            number: known,
            timestamp:
              knownTimestamp && knownTimestamp > 0
                ? knownTimestamp
                : (await this.blockRef(plan.chainId, known)).timestamp,
          };
        }
        return facts;
      }),
    );
  }

  private async blockRef(chainId: number, number: number): Promise<BlockRef> {
    const key = `${chainId}:${number}`;
    let timestamp = this.timestamps.get(key);
    if (timestamp === undefined) {
      const block = await this.client(chainId).getBlock({ blockNumber: BigInt(number) });
      timestamp = Number(block.timestamp);
      this.timestamps.set(key, timestamp);
    }
    return { number, timestamp };
  }

  private client(chainId: number): PublicClient {
    let client = this.clients.get(chainId);
    if (!client) {
      client = createPublicClient({
        transport: rpcTransport(this.config.rpcUrls.get(chainId), "indexing-status", { retryCount: 2, timeout: 5_000 }),
      });
      this.clients.set(chainId, client);
    }
    return client;
  }
}

/** Each indexed chain starts at the earliest start block of the contracts indexed on it. */
export function planChains(config: AppConfig): ChainPlan[] {
  const plans = new Map<string, ChainPlan>();
  const idByName = new Map(Object.values(config.namespace.datasources).map((ds) => [ds!.chain.name, ds!.chain.id]));
  for (const contract of Object.values(composeContracts(config))) {
    const chainId = idByName.get(contract.chain)!;
    const plan = plans.get(contract.chain);
    if (!plan) {
      plans.set(contract.chain, {
        chainId,
        chainName: contract.chain,
        startBlock: contract.startBlock,
        endBlock: config.endBlocks.get(chainId),
      });
    } else {
      plan.startBlock = Math.min(plan.startBlock, contract.startBlock);
    }
  }
  return [...plans.values()].sort((a, b) => a.chainId - b.chainId);
}

/** PostgreSQL's undefined_table (42P01), however deep the driver or query builder wrapped it. */
export function isUndefinedTable(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined;
    e;
    e = e.cause as typeof e
  ) {
    if (e.code === "42P01" || (typeof e.message === "string" && /relation .* does not exist/.test(e.message)))
      return true;
  }
  return false;
}
