// Ponder's own internals (dist, plain JavaScript without types), for tests of the ponder patch's modules.
// @ts-expect-error plain JavaScript without types
import { createNoopLogger } from "../../node_modules/ponder/dist/esm/internal/logger.js";
// @ts-expect-error plain JavaScript without types
import { MetricsService } from "../../node_modules/ponder/dist/esm/internal/metrics.js";
// @ts-expect-error plain JavaScript without types
import { createShutdown } from "../../node_modules/ponder/dist/esm/internal/shutdown.js";

/** The `common` object Ponder's modules take (options, logger, metrics, shutdown), quiet, for `ponder start`. */
export function ponderCommon(): {
  options: { command: string };
  logger: unknown;
  metrics: unknown;
  shutdown: { kill(): Promise<void> };
} {
  return {
    options: { command: "start" },
    logger: createNoopLogger(),
    metrics: new MetricsService(),
    shutdown: createShutdown(),
  };
}
