import { z } from "zod";
import type { HostedRpcOptions } from "../../harness/hosted-rpc/hosted-rpc-settings";
import { PROVIDER_STYLES } from "../../harness/hosted-rpc/provider-errors";

/*
 * The rehearsal's provider imitation, configured from the environment (REHEARSAL_*). Every problem is reported at
 * once, each with its variable, what it got and what would be valid.
 */

const MS = "must be a whole number of milliseconds, 0 or more";
const SHARE = "must be a share between 0 and 1 (e.g. 0.002)";
const COUNT = "must be a whole number, 1 or more";
const BLOCKS = "must be a whole number of blocks, 0 or more";

const milliseconds = z.coerce.number({ message: MS }).int(MS).min(0, MS);
const share = z.coerce.number({ message: SHARE }).min(0, SHARE).max(1, SHARE);
const count = z.coerce.number({ message: COUNT }).int(COUNT).min(1, COUNT);

export const hostedRpcEnvSchema = z.object({
  REHEARSAL_PROVIDER: z.enum(PROVIDER_STYLES, { message: `must be one of ${PROVIDER_STYLES.join(", ")}` }).optional(),
  REHEARSAL_LATENCY_MS: milliseconds.optional(),
  REHEARSAL_JITTER_MS: milliseconds.optional(),
  REHEARSAL_MAX_RPS: z
    .string()
    .transform((raw, ctx) => {
      const n = raw === "off" ? 0 : Number(raw);
      if (n >= 0) return n;
      ctx.addIssue({ code: "custom", message: 'must be a number of requests per second, or 0 or "off" for no limit' });
      return z.NEVER;
    })
    .optional(),
  REHEARSAL_SERVER_ERROR_RATE: share.optional(),
  REHEARSAL_TIMEOUT_RATE: share.optional(),
  REHEARSAL_LAG_RATE: share.optional(),
  REHEARSAL_LAG_BLOCKS: z.coerce.number({ message: BLOCKS }).int(BLOCKS).min(0, BLOCKS).optional(),
  REHEARSAL_GETLOGS_MAX_RANGE: count.optional(),
  REHEARSAL_GETLOGS_MAX_RESULTS: count.optional(),
  REHEARSAL_SEED: z.coerce.number({ message: "must be a whole number" }).int("must be a whole number").optional(),
});

export class HostedRpcConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid rehearsal RPC configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "HostedRpcConfigError";
  }
}

export function hostedRpcOptionsFromEnv(env: Record<string, string | undefined>): Omit<HostedRpcOptions, "upstream"> {
  // An empty variable (FOO= in a .env file) means "not set".
  const present = Object.fromEntries(
    Object.entries(env).filter(([k, v]) => k.startsWith("REHEARSAL_") && v !== undefined && v.trim() !== ""),
  ) as Record<string, string>;
  const parsed = hostedRpcEnvSchema.safeParse(present);
  if (!parsed.success) {
    throw new HostedRpcConfigError(
      parsed.error.issues.map((i) => {
        const name = String(i.path[0]);
        return `${name}: ${i.message} (got "${present[name]}")`;
      }),
    );
  }
  const e = parsed.data;
  const style = e.REHEARSAL_PROVIDER ?? "alchemy";
  // QuickNode refuses wide ranges, not large results; a result cap set for it would silently do nothing.
  if (style === "quicknode" && e.REHEARSAL_GETLOGS_MAX_RESULTS !== undefined) {
    throw new HostedRpcConfigError([
      "REHEARSAL_GETLOGS_MAX_RESULTS: quicknode has no result-count limit to imitate (it refuses block ranges: " +
        "set REHEARSAL_GETLOGS_MAX_RANGE), or choose REHEARSAL_PROVIDER=alchemy or infura",
    ]);
  }
  const options: Omit<HostedRpcOptions, "upstream"> = {
    style,
    latencyMs: e.REHEARSAL_LATENCY_MS,
    jitterMs: e.REHEARSAL_JITTER_MS,
    maxRequestsPerSecond: e.REHEARSAL_MAX_RPS,
    serverErrorRate: e.REHEARSAL_SERVER_ERROR_RATE,
    timeoutRate: e.REHEARSAL_TIMEOUT_RATE,
    lagRate: e.REHEARSAL_LAG_RATE,
    lagBlocks: e.REHEARSAL_LAG_BLOCKS,
    getLogsMaxRange: e.REHEARSAL_GETLOGS_MAX_RANGE,
    getLogsMaxResults: e.REHEARSAL_GETLOGS_MAX_RESULTS,
    seed: e.REHEARSAL_SEED,
  };
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as Omit<
    HostedRpcOptions,
    "upstream"
  >;
}
