import type { Hex } from "viem";
import { type AppConfig, getConfig } from "../../config";
import { runWhenIdle } from "../idle";
import { isNormalizedLabel } from "../labels";
import { emptyHealingMetrics, type HealingMetrics, LabelHealer, type LabelHealerOptions } from "./healer";
import { HttpLabelSource } from "./http-source";
import { LabelPrefetcher } from "./prefetch";
import { SqliteLabelSource } from "./sqlite-source";

export { LabelHealer, DEFAULT_RETRY, type HealingMetrics, type LabelHealerOptions, type RetryPolicy } from "./healer";
export { LabelHealingError, TransientLabelSourceError } from "./errors";
export { HttpLabelSource } from "./http-source";
export { SqliteLabelSource } from "./sqlite-source";
export { LabelPrefetcher } from "./prefetch";

let healer: LabelHealer | undefined;

/** The indexer's healer: the label SQLite file when LABELS_DB is set, else the label service over HTTP. */
export function createHealer(config: AppConfig, options: Partial<LabelHealerOptions> = {}): LabelHealer {
  const source = config.labelsDbPath
    ? new SqliteLabelSource(config.labelsDbPath, config.labelSet)
    : new HttpLabelSource({ url: config.labelsServiceUrl, labelSet: config.labelSet });
  return new LabelHealer({ source, ...options, retry: { totalMs: config.labelsRetryBudgetMs, ...options.retry } });
}

export function getHealer(): LabelHealer {
  healer ??= createHealer(getConfig());
  return healer;
}

/** Replaces the process-wide healer (tests, or another plugin wiring its own source). */
export function setHealer(next: LabelHealer | undefined): void {
  healer = next;
}

let prefetcher: { prefetcher: LabelPrefetcher; chainId: number; startBlock: bigint } | null | undefined;

/**
 * Over HTTP, the batch prefetch of the ENS root registries' upcoming labels; null with a local label database (a
 * lookup is a B-tree probe), without an ENS root chain, or when every handler is a no-op (the benchmark floor
 * measures Ponder alone, without label traffic).
 */
function rootPrefetcher(): typeof prefetcher {
  if (prefetcher === undefined) {
    const config = getConfig();
    const root = config.namespace.datasources.ensroot;
    const rpcUrl = root ? config.rpcUrls.get(root.chain.id) : undefined;
    const registries = [root?.contracts.RegistryOld, root?.contracts.Registry].filter((c) => c?.address !== undefined);
    prefetcher =
      !config.noopHandlers && !config.labelsDbPath && root && rpcUrl && registries.length > 0
        ? {
            prefetcher: new LabelPrefetcher({ healer: getHealer(), rpcUrl, registries: registries.map((c) => c!.address!) }),
            chainId: root.chain.id,
            startBlock: BigInt(Math.min(...registries.map((c) => c!.startBlock))),
          }
        : null;
  }
  return prefetcher;
}

/**
 * Tells the healing module that the ENS root chain's handlers reached `block` (chain `chainId`), so the prefetch
 * stays ahead of indexing. On other chains it does nothing.
 */
export function noteIndexedBlock(chainId: number, block: bigint): void {
  const root = rootPrefetcher();
  if (root && chainId === root.chainId) root.prefetcher.notify(block);
}

/** Heals one labelhash with the process-wide healer: the label (verified) or null; throws LabelHealingError to stop. */
export function healLabel(labelhash: Hex): Promise<string | null> {
  return getHealer().heal(labelhash);
}


/** Counters since start (all zero before the first heal). */
export function healingMetrics(): HealingMetrics {
  return healer?.metrics() ?? emptyHealingMetrics();
}

/**
 * Starts the one-off work healing needs without waiting for it: opening the label database now, so it overlaps
 * Ponder's own start-up (failures surface at the first heal), and building ENSIP-15's tables (~0.3 s of CPU, done by
 * the first normalization) once the process is idle, which is while Ponder waits on the backfill's first JSON-RPC
 * answers rather than during its busy start-up. Nothing when every handler is a no-op (the benchmark floor measures
 * Ponder alone).
 */
export function warmUpHealing(): void {
  if (getConfig().noopHandlers) return;
  void getHealer().warmUp().catch(() => {});
  runWhenIdle(() => isNormalizedLabel("warmup"));
}

/**
 * Over HTTP, starts prefetching the ENS root registries' first labels (from their start block) at start-up, for the
 * plugin that indexes those registries. Fetched while Ponder starts and syncs, they are cached when the first
 * events come; otherwise the first registry events wait for them inside Ponder's indexing transaction, which on
 * PGlite also holds up every write of the sync.
 */
export function prefetchFirstRootLabels(): void {
  const root = rootPrefetcher();
  root?.prefetcher.notify(root.startBlock);
}
