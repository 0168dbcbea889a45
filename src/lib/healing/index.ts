import type { Address, Hex } from "viem";
import { type AppConfig, getConfig } from "../../config";
import { isNormalizedLabel } from "../labels";
import { emptyHealingMetrics, type HealingMetrics, LabelHealer, type LabelHealerOptions } from "./healer";
import { HttpLabelSource } from "./http-source";
import { runWhenIdle } from "./idle";
import { LabelPrefetcher } from "./prefetch";
import { SqliteLabelSource } from "./sqlite-source";

export { LabelHealingError, TransientLabelSourceError } from "./errors";
export { DEFAULT_RETRY, type HealingMetrics, LabelHealer, type LabelHealerOptions, type RetryPolicy } from "./healer";
export { HttpLabelSource } from "./http-source";
export { LabelPrefetcher } from "./prefetch";
export { SqliteLabelSource } from "./sqlite-source";

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

/** The datasources whose registries' NewOwner events name the labels their handlers heal. */
const REGISTRY_DATASOURCES = ["ensroot", "basenames", "lineanames"] as const;
type RegistryDatasource = (typeof REGISTRY_DATASOURCES)[number];

interface ChainPrefetch {
  prefetcher: LabelPrefetcher;
  /** Per datasource on this chain, its registries' first block. */
  startBlocks: Map<RegistryDatasource, bigint>;
}

let prefetchers: Map<number, ChainPrefetch> | undefined;

/**
 * Over HTTP, one batch prefetch per chain with a registry (the ENS root's, Basenames', Lineanames'), keyed by chain
 * id; none with a local label database (a lookup is a B-tree probe) or when every handler is a no-op (the benchmark
 * floor measures Ponder alone, without label traffic).
 */
function registryPrefetchers(): Map<number, ChainPrefetch> {
  if (prefetchers) return prefetchers;
  prefetchers = new Map();
  const config = getConfig();
  if (config.noopHandlers || config.labelsDbPath) return prefetchers;
  type ChainRegistries = { registries: Address[]; startBlocks: Map<RegistryDatasource, bigint> };
  const byChain = new Map<number, ChainRegistries>();
  for (const name of REGISTRY_DATASOURCES) {
    const datasource = config.namespace.datasources[name];
    if (!datasource || !config.rpcUrls.has(datasource.chain.id)) continue;
    const registries = [datasource.contracts.RegistryOld, datasource.contracts.Registry].filter(
      (c) => c?.address !== undefined,
    );
    if (registries.length === 0) continue;
    const chain: ChainRegistries = byChain.get(datasource.chain.id) ?? { registries: [], startBlocks: new Map() };
    chain.registries.push(...registries.map((c) => c!.address!));
    chain.startBlocks.set(name, BigInt(Math.min(...registries.map((c) => c!.startBlock))));
    byChain.set(datasource.chain.id, chain);
  }
  for (const [chainId, { registries, startBlocks }] of byChain) {
    const prefetcher = new LabelPrefetcher({ healer: getHealer(), rpcUrl: config.rpcUrls.get(chainId)!, registries });
    prefetchers.set(chainId, { prefetcher, startBlocks });
  }
  return prefetchers;
}

/**
 * Tells the healing module that a registry's handlers on chain `chainId` reached `block`, so that chain's prefetch
 * stays ahead of indexing.
 */
export function noteIndexedBlock(chainId: number, block: bigint): void {
  registryPrefetchers().get(chainId)?.prefetcher.notify(block);
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
  void getHealer()
    .warmUp()
    .catch(() => {});
  runWhenIdle(() => isNormalizedLabel("warmup"));
}

/**
 * Over HTTP, starts prefetching the labels of `datasource`'s registries from where this start indexes them first, for
 * the plugin that indexes them: their start block on a new index, else the chain's resume block (`resumeBlocks`, read
 * once Ponder has opened the database; a resumed start has no need of the blocks it indexed before). Fetched while
 * Ponder starts and syncs, they are cached when the first events come; otherwise the first registry events wait for
 * them inside Ponder's indexing transaction, which on PGlite also holds up every write of the sync.
 */
export function prefetchFirstLabels(
  datasource: RegistryDatasource,
  resumeBlocks: () => Promise<ReadonlyMap<number, bigint>>,
): void {
  const chainId = getConfig().namespace.datasources[datasource]?.chain.id;
  const chain = chainId === undefined ? undefined : registryPrefetchers().get(chainId);
  const startBlock = chain?.startBlocks.get(datasource);
  if (!chain || startBlock === undefined) return;
  const notify = (resume: bigint | undefined) =>
    chain.prefetcher.notify(resume !== undefined && resume > startBlock ? resume : startBlock);
  // The prefetch only warms the cache: where the resume block cannot be read, the start block is a safe place.
  resumeBlocks().then(
    (blocks) => notify(blocks.get(chainId!)),
    () => notify(undefined),
  );
}

/** The prefetches' counters summed over chains (all zero before the first registry event or without prefetch). */
export function prefetchMetrics(): { requests: number; failures: number } {
  const total = { requests: 0, failures: 0 };
  for (const { prefetcher } of prefetchers?.values() ?? []) {
    total.requests += prefetcher.stats.requests;
    total.failures += prefetcher.stats.failures;
  }
  return total;
}
