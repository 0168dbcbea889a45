import type { AppConfig } from "../../config";
import { chainsOf } from "../../plugins/requirements";
import type { ResolutionDeps } from "./route";

/** What the resolution routes take from the app's config. */
export function resolutionSettings(
  config: AppConfig,
): Pick<ResolutionDeps, "namespace" | "rpcUrls" | "accelerationIndexed" | "indexedChainIds"> {
  return {
    namespace: config.namespace,
    rpcUrls: config.rpcUrls,
    accelerationIndexed: config.plugins.includes("protocol-acceleration"),
    indexedChainIds: chainsOf(config.namespace, config.plugins).map((c) => c.id),
  };
}
