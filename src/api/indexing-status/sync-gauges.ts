import { ponderCommon } from "../../runtime/ponder-hooks";
import { gaugeByChain } from "./prometheus";

/** Ponder's per-chain sync gauges, keyed by chain name: the backfill's block count and the newest block seen. */
export interface SyncGauges {
  totalBlocks: Map<string, number>;
  syncBlock: Map<string, number>;
  syncTimestamp: Map<string, number>;
}

export type SyncGaugeReader = () => Promise<SyncGauges>;

interface InProcessGauge {
  get(): Promise<{ values: { value: number; labels: Record<string, string | number | undefined> }[] }>;
}

const GAUGES = {
  totalBlocks: "ponder_historical_total_blocks",
  syncBlock: "ponder_sync_block",
  syncTimestamp: "ponder_sync_block_timestamp",
} as const;

/**
 * In the indexing process (`ponder start`/`dev`) the gauges are read from Ponder's metrics objects directly: asking
 * our own /metrics over HTTP made prom-client serialize every metric, on the event loop that also indexes.
 * API replicas (`ponder serve`) do not sync, so they read the indexer's /metrics (INDEXER_URL) instead.
 */
export function syncGaugeReader(metricsUrl: string | undefined): SyncGaugeReader {
  const common = ponderCommon();
  const metrics = common?.metrics;
  const indexing = common?.options?.command === "start" || common?.options?.command === "dev";
  if (indexing && metrics && Object.values(GAUGES).every((name) => metrics[name])) {
    return () => readInProcess(metrics as Record<string, InProcessGauge>);
  }
  return () => scrape(metricsUrl);
}

async function readInProcess(metrics: Record<string, InProcessGauge>): Promise<SyncGauges> {
  const byChain = async (name: string) => {
    const values = new Map<string, number>();
    for (const sample of (await metrics[name].get()).values) {
      if (sample.labels.chain !== undefined) values.set(String(sample.labels.chain), sample.value);
    }
    return values;
  };
  const [totalBlocks, syncBlock, syncTimestamp] = await Promise.all([
    byChain(GAUGES.totalBlocks),
    byChain(GAUGES.syncBlock),
    byChain(GAUGES.syncTimestamp),
  ]);
  return { totalBlocks, syncBlock, syncTimestamp };
}

async function scrape(metricsUrl: string | undefined): Promise<SyncGauges> {
  let text = "";
  if (metricsUrl) {
    try {
      const res = await fetch(metricsUrl, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) text = await res.text();
    } catch {
      // Metrics only refine the snapshot (backfill target, chain head); the database facts stand without them.
    }
  }
  return {
    totalBlocks: gaugeByChain(text, GAUGES.totalBlocks),
    syncBlock: gaugeByChain(text, GAUGES.syncBlock),
    syncTimestamp: gaugeByChain(text, GAUGES.syncTimestamp),
  };
}
