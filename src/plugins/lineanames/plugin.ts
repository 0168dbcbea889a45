import {
  BaseRegistrarAbi,
  LineanamesRegistrarControllerAbi,
  NameWrapperAbi,
  RegistryAbi,
  ResolverAbi,
} from "../../../abis";
import { definePlugin } from "../define";

/** Lineanames: names under linea.eth, registered on Linea. */
export const lineanamesPlugin = definePlugin({
  name: "lineanames",
  requiredDatasources: ["lineanames"],
  contracts: [
    { name: "Registry", datasource: "lineanames", contract: "Registry", abi: RegistryAbi },
    { name: "Resolver", datasource: "lineanames", contract: "Resolver", abi: ResolverAbi },
    { name: "BaseRegistrar", datasource: "lineanames", contract: "BaseRegistrar", abi: BaseRegistrarAbi },
    {
      name: "EthRegistrarController",
      datasource: "lineanames",
      contract: "EthRegistrarController",
      abi: LineanamesRegistrarControllerAbi,
    },
    { name: "NameWrapper", datasource: "lineanames", contract: "NameWrapper", abi: NameWrapperAbi, optional: true },
  ],
});
