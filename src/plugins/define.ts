import type { Abi } from "viem";
import type { DatasourceName } from "../namespaces/types";
import type { PluginName } from "./names";

/** One contract a plugin indexes: `contract` of `datasource`, known to Ponder as `<plugin>/<name>`. */
export interface PluginContract {
  name: string;
  datasource: DatasourceName;
  contract: string;
  abi: Abi;
  /** Optional contracts are indexed where the namespace has them (e.g. a controller deployed later on one network). */
  optional?: boolean;
}

export interface PluginDefinition {
  name: PluginName;
  /** Every one of these must exist in the namespace. */
  requiredDatasources: DatasourceName[];
  /** At least one of these must exist (e.g. 3DNS runs on Optimism, Base, or both). */
  requiresOneOf?: DatasourceName[];
  contracts: PluginContract[];
}

export function definePlugin(plugin: PluginDefinition): PluginDefinition {
  return plugin;
}
