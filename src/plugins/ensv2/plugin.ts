import { Ensv2EthRegistrarAbi, Ensv2RegistryAbi } from "../../../abis/ensv2";
import { definePlugin } from "../define";

/**
 * ENSv2 (docs/ensv2.md): the tree of registries found from the root as they are linked, the `.eth` registrar's
 * registrations and renewals, and EnhancedAccessControl roles. `Registry` has no address: every registry matches
 * by ABI, since registries below the root are deployed by anyone, through a factory or not.
 */
export const ensv2Plugin = definePlugin({
  name: "ensv2",
  requiredDatasources: ["ensv2"],
  contracts: [
    { name: "Registry", datasource: "ensv2", contract: "Registry", abi: Ensv2RegistryAbi },
    { name: "ETHRegistrar", datasource: "ensv2", contract: "ETHRegistrar", abi: Ensv2EthRegistrarAbi },
  ],
});
