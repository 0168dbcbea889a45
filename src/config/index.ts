import { type AppConfig, buildConfig } from "./app-config";

let cached: AppConfig | undefined;

/** The process's configuration, parsed from the environment on first use. */
export function getConfig(): AppConfig {
  cached ??= buildConfig(process.env);
  return cached;
}

export { buildConfig, ConfigError, chainsOf, type AppConfig, type LabelSetPin } from "./app-config";
