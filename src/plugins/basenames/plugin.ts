import { BasenamesBaseRegistrarAbi, BasenamesRegistrarControllerAbi, RegistryAbi, ResolverAbi } from "../../../abis";
import { definePlugin } from "../define";

/** Basenames: names under base.eth, registered on Base. */
export const basenamesPlugin = definePlugin({
  name: "basenames",
  requiredDatasources: ["basenames"],
  contracts: [
    { name: "Registry", datasource: "basenames", contract: "Registry", abi: RegistryAbi },
    { name: "Resolver", datasource: "basenames", contract: "Resolver", abi: ResolverAbi },
    { name: "BaseRegistrar", datasource: "basenames", contract: "BaseRegistrar", abi: BasenamesBaseRegistrarAbi },
    {
      name: "EARegistrarController",
      datasource: "basenames",
      contract: "EARegistrarController",
      abi: BasenamesRegistrarControllerAbi,
      optional: true,
    },
    {
      name: "RegistrarController",
      datasource: "basenames",
      contract: "RegistrarController",
      abi: BasenamesRegistrarControllerAbi,
      optional: true,
    },
    {
      name: "UpgradeableRegistrarController",
      datasource: "basenames",
      contract: "UpgradeableRegistrarController",
      abi: BasenamesRegistrarControllerAbi,
      optional: true,
    },
  ],
});
