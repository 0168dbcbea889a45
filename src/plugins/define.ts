import type { Factory } from "ponder";
import type { Abi } from "viem";
import type { AppConfig } from "../config/types";
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
  /**
   * Names of this plugin's contracts that, when they match any address on this contract's chain, already receive its
   * events: then this one is left out (registered too, each event would reach the handlers twice; registered without
   * handlers, Ponder warns at every start).
   */
  coveredBy?: string[];
  /**
   * The contract is the children this Ponder factory names (with no parent `address`: named by any contract), each
   * from the block it was named on; the datasource contract gives only the start block.
   */
  factory?: Factory;
  /** A contract an operator may turn off (e.g. Seaport, whose every fill is fetched): indexed only when this is true. */
  enabledBy?: (config: AppConfig) => boolean;
}

export interface PluginDefinition {
  name: PluginName;
  /** Every one of these must exist in the namespace. */
  requiredDatasources: DatasourceName[];
  /** At least one of these must exist (e.g. 3DNS runs on Optimism, Base, or both). */
  requiresOneOf?: DatasourceName[];
  contracts: readonly PluginContract[];
}

/**
 * Keeps the literal names and ABI types of a plugin's contracts, so that the composed Ponder config (compose.ts) and
 * with it every `ponder.on` know each contract's events and their argument types.
 */
export function definePlugin<const Name extends PluginName, const Contracts extends readonly PluginContract[]>(
  plugin: Omit<PluginDefinition, "name" | "contracts"> & { name: Name; contracts: Contracts },
): Omit<PluginDefinition, "name" | "contracts"> & { name: Name; contracts: Contracts } {
  return plugin;
}
