import {
  BasenamesBaseRegistrarAbi,
  BasenamesRegistrarControllerAbi,
  BaseRegistrarAbi,
  LegacyEthRegistrarControllerAbi,
  LineanamesRegistrarControllerAbi,
  RenewalWithReferrerAbi,
  UnwrappedEthRegistrarControllerAbi,
  WrappedEthRegistrarControllerAbi,
} from "../../../abis";
import { definePlugin } from "../define";

/** Registration lifecycles and logical registrar actions of every subregistry (.eth, base.eth, linea.eth). */
export const registrarsPlugin = definePlugin({
  name: "registrars",
  requiredDatasources: ["ensroot"],
  contracts: [
    { name: "ensroot/BaseRegistrar", datasource: "ensroot", contract: "BaseRegistrar", abi: BaseRegistrarAbi },
    {
      name: "ensroot/LegacyEthRegistrarController",
      datasource: "ensroot",
      contract: "LegacyEthRegistrarController",
      abi: LegacyEthRegistrarControllerAbi,
      optional: true,
    },
    {
      name: "ensroot/WrappedEthRegistrarController",
      datasource: "ensroot",
      contract: "WrappedEthRegistrarController",
      abi: WrappedEthRegistrarControllerAbi,
      optional: true,
    },
    {
      name: "ensroot/UnwrappedEthRegistrarController",
      datasource: "ensroot",
      contract: "UnwrappedEthRegistrarController",
      abi: UnwrappedEthRegistrarControllerAbi,
      optional: true,
    },
    {
      name: "ensroot/RenewalWithReferrer",
      datasource: "ensroot",
      contract: "RenewalWithReferrer",
      abi: RenewalWithReferrerAbi,
      optional: true,
    },
    {
      name: "basenames/BaseRegistrar",
      datasource: "basenames",
      contract: "BaseRegistrar",
      abi: BasenamesBaseRegistrarAbi,
      optional: true,
    },
    ...(["EARegistrarController", "RegistrarController", "UpgradeableRegistrarController"] as const).map(
      (contract) => ({
        name: `basenames/${contract}` as const,
        datasource: "basenames" as const,
        contract,
        abi: BasenamesRegistrarControllerAbi,
        optional: true,
      }),
    ),
    {
      name: "lineanames/BaseRegistrar",
      datasource: "lineanames",
      contract: "BaseRegistrar",
      abi: BaseRegistrarAbi,
      optional: true,
    },
    {
      name: "lineanames/EthRegistrarController",
      datasource: "lineanames",
      contract: "EthRegistrarController",
      abi: LineanamesRegistrarControllerAbi,
      optional: true,
    },
  ],
});
