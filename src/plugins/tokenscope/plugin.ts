import { BaseRegistrarAbi, NameWrapperAbi, SeaportAbi, ThreeDNSTokenAbi } from "../../../abis";
import { definePlugin } from "../define";

/**
 * The NFTs that represent names (base registrar ERC-721s, NameWrapper ERC-1155s and 3DNS tokens), and their sales
 * through Seaport 1.5 on the ENS root chain.
 */
export const tokenscopePlugin = definePlugin({
  name: "tokenscope",
  requiredDatasources: ["ensroot"],
  contracts: [
    { name: "ensroot/BaseRegistrar", datasource: "ensroot", contract: "BaseRegistrar", abi: BaseRegistrarAbi },
    {
      name: "ensroot/NameWrapper",
      datasource: "ensroot",
      contract: "NameWrapper",
      abi: NameWrapperAbi,
      optional: true,
    },
    {
      name: "basenames/BaseRegistrar",
      datasource: "basenames",
      contract: "BaseRegistrar",
      abi: BaseRegistrarAbi,
      optional: true,
    },
    {
      name: "lineanames/BaseRegistrar",
      datasource: "lineanames",
      contract: "BaseRegistrar",
      abi: BaseRegistrarAbi,
      optional: true,
    },
    {
      name: "lineanames/NameWrapper",
      datasource: "lineanames",
      contract: "NameWrapper",
      abi: NameWrapperAbi,
      optional: true,
    },
    {
      name: "threednsOptimism/Token",
      datasource: "threednsOptimism",
      contract: "ThreeDNSToken",
      abi: ThreeDNSTokenAbi,
      optional: true,
    },
    {
      name: "threednsBase/Token",
      datasource: "threednsBase",
      contract: "ThreeDNSToken",
      abi: ThreeDNSTokenAbi,
      optional: true,
    },
    {
      name: "ensroot/Seaport",
      datasource: "ensroot",
      contract: "Seaport",
      abi: SeaportAbi,
      optional: true,
      enabledBy: (config) => config.tokenscopeSales,
    },
  ],
});
