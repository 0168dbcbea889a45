import { ResolverAbi, ThreeDNSTokenAbi } from "../../../abis";
import type { DatasourceName } from "../../namespaces/types";
import { definePlugin, type PluginContract } from "../define";

const THREEDNS_DATASOURCES: DatasourceName[] = ["threednsOptimism", "threednsBase"];

/** 3DNS: onchain DNS names on Optimism and Base, shown under their TLD domains. */
export const threednsPlugin = definePlugin({
  name: "threedns",
  requiredDatasources: [],
  requiresOneOf: THREEDNS_DATASOURCES,
  contracts: THREEDNS_DATASOURCES.flatMap((datasource): PluginContract[] => [
    { name: `${datasource}/Token`, datasource, contract: "ThreeDNSToken", abi: ThreeDNSTokenAbi, optional: true },
    { name: `${datasource}/Resolver`, datasource, contract: "ThreeDNSResolver", abi: ResolverAbi, optional: true },
  ]),
});
