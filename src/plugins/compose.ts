import type { Factory } from "ponder";
import type { Abi, Transport } from "viem";
import type { AppConfig } from "../config";
import { rpcTransport } from "../lib/rpc-transport";
import { type PLUGINS, pluginDefinition } from ".";
import type { PluginContract } from "./define";
import type { PluginName } from "./names";
import { chainsOf } from "./requirements";

export interface ComposedContract {
  abi: Abi;
  chain: string;
  /** A plain address, or a factory's children (define.ts, `factory`); none: every address. */
  address?: `0x${string}` | Factory;
  startBlock: number;
  endBlock?: number;
  /**
   * The build record's id (src/indexing/build-record.ts). Ponder ignores the field but hashes every contract into
   * its build id, so a change of an output-changing setting makes a new build.
   */
  nameindexBuild?: string;
}

/** A plugin's contracts under their Ponder names, each with its own ABI's type. */
type ContractsOf<P extends { name: string; contracts: readonly PluginContract[] }> = {
  [C in P["contracts"][number] as `${P["name"]}/${C["name"]}`]: Omit<ComposedContract, "abi"> & { abi: C["abi"] };
};

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/**
 * Every contract any plugin may index, by its Ponder name, with its ABI's type: what Ponder's generated types read to
 * type `ponder.on`'s event names and arguments (ponder-env.d.ts). At run time the config holds only the
 * active plugins' contracts that the namespace has; handlers register only those (`isIndexed`).
 */
export type ComposedContracts = UnionToIntersection<
  { [P in PluginName]: ContractsOf<(typeof PLUGINS)[P]> }[PluginName]
>;

export interface ComposedChain {
  id: number;
  rpc: Transport;
  disableCache: boolean;
  ethGetLogsBlockRange?: number;
}

/** The active plugins' contracts, named `<plugin>/<contract>` so two plugins can index the same contract. */
export function composeContracts(config: AppConfig, buildRecordId?: string): ComposedContracts {
  return composeContractList(config, buildRecordId) as unknown as ComposedContracts;
}

/** The same contracts as a plain record, for code that walks them (the indexing status, the name-token settings). */
export function composeContractList(config: AppConfig, buildRecordId?: string): Record<string, ComposedContract> {
  const contracts: Record<string, ComposedContract> = {};
  for (const pluginName of config.plugins) {
    for (const c of pluginDefinition(pluginName).contracts) {
      const ds = config.namespace.datasources[c.datasource];
      const ref = ds?.contracts[c.contract];
      if (!ds || !ref) continue;
      if (c.enabledBy && !c.enabledBy(config)) continue;
      const endBlock = config.endBlocks.get(ds.chain.id);
      contracts[`${pluginName}/${c.name}`] = {
        abi: c.abi,
        chain: ds.chain.name,
        ...(c.factory ? { address: c.factory } : ref.address ? { address: ref.address } : {}),
        startBlock: ref.startBlock,
        ...(endBlock !== undefined ? { endBlock } : {}),
        ...(buildRecordId !== undefined ? { nameindexBuild: buildRecordId } : {}),
      };
    }
  }
  for (const pluginName of config.plugins) {
    for (const c of pluginDefinition(pluginName).contracts) {
      const own = contracts[`${pluginName}/${c.name}`];
      const covered = c.coveredBy?.some((name) => {
        const other = contracts[`${pluginName}/${name}`];
        return other !== undefined && other.address === undefined && other.chain === own?.chain;
      });
      if (own && covered) delete contracts[`${pluginName}/${c.name}`];
    }
  }
  return contracts;
}

export function composeChains(config: AppConfig): Record<string, ComposedChain> {
  const isDevnet = config.namespace.name === "devnet";
  return Object.fromEntries(
    chainsOf(config.namespace, config.plugins).map((chain) => [
      chain.name,
      {
        id: chain.id,
        // A devnet block's logs can exceed any bound in one eth_getLogs; elsewhere the project's (src/lib/rpc-transport.ts).
        rpc: rpcTransport(config.rpcUrls.get(chain.id), "indexing", isDevnet ? { maxResponseBodySize: false } : {}),
        // Ponder's RPC cache is keyed by chain id, and every new devnet reuses the same ids with new contents.
        disableCache: isDevnet,
        // A fixed range turns off Ponder's learning of it from the provider's range errors.
        ...(config.getLogsBlockRanges.has(chain.id)
          ? { ethGetLogsBlockRange: config.getLogsBlockRanges.get(chain.id) }
          : {}),
      },
    ]),
  );
}
