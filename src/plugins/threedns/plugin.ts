import { ResolverAbi, ThreeDNSTokenAbi } from "../../../abis";
import { definePlugin } from "../define";

const THREEDNS_DATASOURCES = ["threednsOptimism", "threednsBase"] as const;

/** 3DNS: onchain DNS names on Optimism and Base, shown under their TLD domains. */
export const threednsPlugin = definePlugin({
  name: "threedns",
  requiredDatasources: [],
  requiresOneOf: [...THREEDNS_DATASOURCES],
  contracts: THREEDNS_DATASOURCES.flatMap((datasource) => [
    {
      name: `${datasource}/Token` as const,
      datasource,
      contract: "ThreeDNSToken",
      abi: ThreeDNSTokenAbi,
      optional: true,
    },
    {
      name: `${datasource}/Resolver` as const,
      datasource,
      contract: "ThreeDNSResolver",
      abi: ResolverAbi,
      optional: true,
    },
  ]),
});
