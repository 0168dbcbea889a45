import {
  RegistryAbi,
  ResolverAbi,
  RootResolverAbi,
  StandaloneReverseRegistrarAbi,
  ThreeDNSTokenAbi,
} from "../../../abis";
import { L2_REVERSE_DATASOURCES } from "../../namespaces/types";
import { definePlugin } from "../define";

const REGISTRY_DATASOURCES = ["ensroot", "basenames", "lineanames"] as const;

/** Node→resolver links, resolver records and primary names on every indexed chain, for fast resolution. */
export const protocolAccelerationPlugin = definePlugin({
  name: "protocol-acceleration",
  requiredDatasources: ["ensroot"],
  contracts: [
    ...REGISTRY_DATASOURCES.flatMap((datasource) => [
      {
        name: `${datasource}/Registry` as const,
        datasource,
        contract: "Registry",
        abi: RegistryAbi,
        optional: datasource !== "ensroot",
      },
      {
        name: `${datasource}/Resolver` as const,
        datasource,
        contract: "Resolver",
        // ENSv2's PermissionedResolver (and its AliasChanged) lives on the ENS root chain.
        abi: datasource === "ensroot" ? RootResolverAbi : ResolverAbi,
        optional: datasource !== "ensroot",
      },
    ]),
    { name: "ensroot/RegistryOld", datasource: "ensroot", contract: "RegistryOld", abi: RegistryAbi, optional: true },
    // A 3DNS resolver on a chain whose resolvers are matched at any address (Base, with Basenames) is left to that match.
    ...(["threednsOptimism", "threednsBase"] as const).map((datasource) => ({
      name: `${datasource}/Resolver` as const,
      datasource,
      contract: "ThreeDNSResolver",
      abi: ResolverAbi,
      optional: true,
      coveredBy: REGISTRY_DATASOURCES.map((ds) => `${ds}/Resolver`),
    })),
    // 3DNS names have no registry: the token's registrations are their node→resolver links.
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
      name: "ensroot/DefaultReverseRegistrar",
      datasource: "ensroot",
      contract: "DefaultReverseRegistrar",
      abi: StandaloneReverseRegistrarAbi,
      optional: true,
    },
    ...L2_REVERSE_DATASOURCES.map((datasource) => ({
      name: `${datasource}/L2ReverseRegistrar` as const,
      datasource,
      contract: "L2ReverseRegistrar",
      abi: StandaloneReverseRegistrarAbi,
      optional: true,
    })),
  ],
});
