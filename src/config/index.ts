import { buildConfig } from "./app-config";
import type { AppConfig } from "./types";

let cached: AppConfig | undefined;

/** The process's configuration, parsed from the environment on first use. */
export function getConfig(): AppConfig {
  cached ??= buildConfig(process.env);
  return cached;
}

export { buildConfig, ConfigError } from "./app-config";
export type { AppConfig, LabelSetPin } from "./types";
