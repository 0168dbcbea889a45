import type { InjectedKind } from "./call-plan";
import { PROVIDER_STYLES, type ProviderStyle } from "./provider-errors";

/* The hosted-RPC imitation's options, and the same with every default filled in, checked whenever they change. */

export interface HostedRpcOptions {
  /** JSON-RPC URL to forward to (an anvil or another proxy). */
  upstream: string;
  /** Which provider's eth_getLogs limits and error messages to imitate (default "alchemy"). */
  style?: ProviderStyle;
  /** Added per HTTP request (a batch counts once), default 40. */
  latencyMs?: number;
  /** Uniform ± around latencyMs, default 10. */
  jitterMs?: number;
  /** Sliding 1 s window per proxy; above it → HTTP 429 with Retry-After (default 300; 0 or Infinity = off). */
  maxRequestsPerSecond?: number;
  /** Share of requests answered 502/503, default 0.002. */
  serverErrorRate?: number;
  /** Share of requests held past the client's timeout then dropped, default 0.0005. */
  timeoutRate?: number;
  /** Default 11,500: Ponder gives up on a request after 10 s (ponder/dist/esm/rpc/index.js, timeout: 10000). */
  timeoutHoldMs?: number;
  /** Requests this proxy holds at most (default no bound): past it, a request drawn for a timeout is answered. */
  maxTimeouts?: number;
  /** Share of requests answered by a node lagging behind the head (default 0). */
  lagRate?: number;
  /** How far that node lags (default 5). */
  lagBlocks?: number;
  /**
   * eth_getLogs on a lagging node with toBlock past its head: "error" (default) answers Alchemy's unknown-block
   * error; "truncate" answers the logs up to its head, which is what Alchemy did in NomicFoundation/edr's live test
   * get_logs_future_to_block, and the one answer a client cannot tell from a complete one.
   */
  lagGetLogsBeyondHead?: "error" | "truncate";
  /**
   * The style's block-range number, as toBlock − fromBlock: Alchemy caps no result within it (2,000); QuickNode refuses
   * any range above it (10,000); Infura has none unless it is set (then it refuses as reported in INFURA/infura#237).
   */
  getLogsMaxRange?: number;
  /** The style's result cap (Alchemy and Infura: 10,000 logs; QuickNode has none). */
  getLogsMaxResults?: number;
  seed?: number;
}

export const INJECTED_KINDS: InjectedKind[] = [
  "rangeCap",
  "resultCap",
  "rateLimited",
  "serverError",
  "timeout",
  "lagging",
];

export type Settings = Required<Omit<HostedRpcOptions, "getLogsMaxRange" | "getLogsMaxResults">> &
  Pick<HostedRpcOptions, "getLogsMaxRange" | "getLogsMaxResults">;

export const DEFAULTS: Omit<Settings, "upstream"> = {
  style: "alchemy",
  latencyMs: 40,
  jitterMs: 10,
  maxRequestsPerSecond: 300,
  serverErrorRate: 0.002,
  timeoutRate: 0.0005,
  timeoutHoldMs: 11_500,
  maxTimeouts: Number.POSITIVE_INFINITY,
  lagRate: 0,
  lagBlocks: 5,
  lagGetLogsBeyondHead: "error",
  seed: 1,
};

export function checked(settings: Settings): Settings {
  const problems: string[] = [];
  if (!PROVIDER_STYLES.includes(settings.style)) problems.push(`style must be one of ${PROVIDER_STYLES.join(", ")}`);
  for (const key of ["serverErrorRate", "timeoutRate", "lagRate"] as const) {
    if (!(settings[key] >= 0 && settings[key] <= 1)) problems.push(`${key} must be a share between 0 and 1`);
  }
  for (const key of [
    "latencyMs",
    "jitterMs",
    "timeoutHoldMs",
    "maxTimeouts",
    "lagBlocks",
    "maxRequestsPerSecond",
  ] as const) {
    if (!(settings[key] >= 0)) problems.push(`${key} must be 0 or more`);
  }
  for (const key of ["getLogsMaxRange", "getLogsMaxResults"] as const) {
    const v = settings[key];
    if (v !== undefined && !(Number.isInteger(v) && v >= 1)) problems.push(`${key} must be a whole number, 1 or more`);
  }
  if (problems.length > 0) throw new Error(`hosted RPC options: ${problems.join("; ")}`);
  return settings;
}

export const withoutUndefined = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
