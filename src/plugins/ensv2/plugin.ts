import { factory } from "ponder";
import { getAbiItem } from "viem";
import { Ensv2EthRegistrarAbi, Ensv2RegistryEventsAbi, Ensv2RegistryTransfersAbi } from "../../../abis/ensv2";
import { definePlugin } from "../define";

/**
 * ENSv2 (docs/ensv2.md): the tree of registries found from the root as they are linked, the `.eth` registrar's
 * registrations and renewals, and EnhancedAccessControl roles.
 *
 * `Registry` has no address: registries below the root are deployed by anyone, through a factory or not, and their
 * own events (none of which another kind of contract emits) are matched at every address. Their ERC-1155 transfers
 * are every NFT contract's too, so they come only from the tree: the root (`RootRegistry`) and every address a
 * `SubregistryUpdated` names (`LinkedRegistry`, from the block it is named; the transfers before are fetched then,
 * lib/transfers.ts).
 */
export const ensv2Plugin = definePlugin({
  name: "ensv2",
  requiredDatasources: ["ensv2"],
  contracts: [
    { name: "Registry", datasource: "ensv2", contract: "Registry", abi: Ensv2RegistryEventsAbi },
    { name: "RootRegistry", datasource: "ensv2", contract: "RootRegistry", abi: Ensv2RegistryTransfersAbi },
    {
      name: "LinkedRegistry",
      datasource: "ensv2",
      contract: "Registry",
      abi: Ensv2RegistryTransfersAbi,
      factory: factory({
        event: getAbiItem({ abi: Ensv2RegistryEventsAbi, name: "SubregistryUpdated" }),
        parameter: "subregistry",
      }),
    },
    { name: "ETHRegistrar", datasource: "ensv2", contract: "ETHRegistrar", abi: Ensv2EthRegistrarAbi },
  ],
});
