import type { Hex } from "viem";
import { type AppConfig, getConfig } from "../../config";
import { type HealingMetrics, LabelHealer, type LabelHealerOptions } from "./healer";
import { HttpLabelSource } from "./http-source";
import { SqliteLabelSource } from "./sqlite-source";

export { LabelHealer, DEFAULT_RETRY, type HealingMetrics, type LabelHealerOptions, type RetryPolicy } from "./healer";
export { LabelHealingError, TransientLabelSourceError } from "./errors";
export { HttpLabelSource } from "./http-source";
export { SqliteLabelSource } from "./sqlite-source";

let healer: LabelHealer | undefined;

/** The indexer's healer: the label SQLite file when LABELS_DB is set, else the label service over HTTP. */
export function createHealer(config: AppConfig, options: Partial<LabelHealerOptions> = {}): LabelHealer {
  const source = config.labelsDbPath
    ? new SqliteLabelSource(config.labelsDbPath, config.labelSet)
    : new HttpLabelSource({ url: config.labelsServiceUrl, labelSet: config.labelSet });
  return new LabelHealer({ source, ...options });
}

export function getHealer(): LabelHealer {
  healer ??= createHealer(getConfig());
  return healer;
}

/** Replaces the process-wide healer (tests, or another plugin wiring its own source). */
export function setHealer(next: LabelHealer | undefined): void {
  healer = next;
}

/** Heals one labelhash with the process-wide healer: the label (verified) or null; throws LabelHealingError to stop. */
export function healLabel(labelhash: Hex): Promise<string | null> {
  return getHealer().heal(labelhash);
}

const NO_METRICS: HealingMetrics = {
  calls: 0,
  cacheHits: 0,
  sourceRequests: 0,
  healed: 0,
  notFound: 0,
  mismatches: 0,
  retries: 0,
  totalMs: 0,
};

/** Counters since start (all zero before the first heal). */
export function healingMetrics(): HealingMetrics {
  return healer?.metrics() ?? { ...NO_METRICS };
}
