import type { InjectedKind } from "./call-plan";
import type { HostedRpcOptions } from "./hosted-rpc";
import { PROVIDER_STYLES } from "./provider-errors";

/* The hosted-RPC imitation's options with every default filled in, checked whenever they change. */

export const INJECTED_KINDS: InjectedKind[] = ["rangeCap", "resultCap", "rateLimited", "serverError", "timeout", "lagging"];

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
  for (const key of ["latencyMs", "jitterMs", "timeoutHoldMs", "lagBlocks", "maxRequestsPerSecond"] as const) {
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
