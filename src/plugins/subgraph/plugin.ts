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
    // Optional: sepolia-v2's redeployed ENSv1 has no pre-2020 registry (its nodes all start in the new one).
    { name: "RegistryOld", datasource: "ensroot", contract: "RegistryOld", abi: RegistryAbi, optional: true },
    { name: "Registry", datasource: "ensroot", contract: "Registry", abi: RegistryAbi },
    { name: "Resolver", datasource: "ensroot", contract: "Resolver", abi: ResolverAbi },
    { name: "BaseRegistrar", datasource: "ensroot", contract: "BaseRegistrar", abi: BaseRegistrarAbi },
    {
      name: "LegacyEthRegistrarController",
      datasource: "ensroot",
      contract: "LegacyEthRegistrarController",
      abi: LegacyEthRegistrarControllerAbi,
      optional: true,
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
