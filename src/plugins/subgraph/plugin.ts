import {
  BaseRegistrarAbi,
  LegacyEthRegistrarControllerAbi,
  NameWrapperAbi,
  RegistryAbi,
  ResolverAbi,
  UnwrappedEthRegistrarControllerAbi,
  WrappedEthRegistrarControllerAbi,
} from "../../../abis";
import { definePlugin } from "../define";

/** ENS on the root chain, indexed with the ENS subgraph's semantics. */
export const subgraphPlugin = definePlugin({
  name: "subgraph",
  requiredDatasources: ["ensroot"],
  contracts: [
    { name: "RegistryOld", datasource: "ensroot", contract: "RegistryOld", abi: RegistryAbi },
    { name: "Registry", datasource: "ensroot", contract: "Registry", abi: RegistryAbi },
    { name: "Resolver", datasource: "ensroot", contract: "Resolver", abi: ResolverAbi },
    { name: "BaseRegistrar", datasource: "ensroot", contract: "BaseRegistrar", abi: BaseRegistrarAbi },
    {
      name: "LegacyEthRegistrarController",
      datasource: "ensroot",
      contract: "LegacyEthRegistrarController",
      abi: LegacyEthRegistrarControllerAbi,
    },
    {
      name: "WrappedEthRegistrarController",
      datasource: "ensroot",
      contract: "WrappedEthRegistrarController",
      abi: WrappedEthRegistrarControllerAbi,
      optional: true,
    },
    {
      name: "UnwrappedEthRegistrarController",
      datasource: "ensroot",
      contract: "UnwrappedEthRegistrarController",
      abi: UnwrappedEthRegistrarControllerAbi,
      optional: true,
    },
    { name: "NameWrapper", datasource: "ensroot", contract: "NameWrapper", abi: NameWrapperAbi, optional: true },
  ],
});
