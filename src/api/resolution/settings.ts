import type { AppConfig } from "../../config";
import { chainsOf } from "../../plugins/requirements";
import type { ResolutionDeps } from "./route";

/** What the resolution routes take from the app's config. */
export function resolutionSettings(
  config: AppConfig,
): Pick<ResolutionDeps, "namespace" | "rpcUrls" | "accelerationIndexed" | "ensv2Indexed" | "indexedChainIds"> {
  return {
    namespace: config.namespace,
    rpcUrls: config.rpcUrls,
    accelerationIndexed: config.plugins.includes("protocol-acceleration"),
    ensv2Indexed: config.plugins.includes("ensv2"),
    indexedChainIds: chainsOf(config.namespace, config.plugins).map((c) => c.id),
  };
}
