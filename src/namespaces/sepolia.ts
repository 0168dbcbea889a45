import type { Namespace } from "./types";

const sepolia = { id: 11155111, name: "sepolia" };
const baseSepolia = { id: 84532, name: "baseSepolia" };
const lineaSepolia = { id: 59141, name: "lineaSepolia" };
const optimismSepolia = { id: 11155420, name: "optimismSepolia" };
const arbitrumSepolia = { id: 421614, name: "arbitrumSepolia" };
const scrollSepolia = { id: 534351, name: "scrollSepolia" };

/** Public Sepolia deployments. Basenames manages `basetest.eth`, Lineanames `linea-sepolia.eth`; no 3DNS here. */
export const sepoliaNamespace: Namespace = {
  name: "sepolia",
  defaultRpcUrls: {},
  datasources: {
    ensroot: {
      chain: sepolia,
      managedName: "eth",
      contracts: {
        RegistryOld: { address: "0x94f523b8261b815b87effcf4d18e6abef18d6e4b", startBlock: 3702721 },
        Registry: { address: "0x00000000000c2e074ec69a0dfb2997ba6c7d2e1e", startBlock: 3702728 },
        Resolver: { startBlock: 3702721 },
        BaseRegistrar: { address: "0x57f1887a8bf19b14fc0df6fd9b2acc9af147ea85", startBlock: 3702731 },
        LegacyEthRegistrarController: { address: "0x7e02892cfc2bfd53a75275451d73cf620e793fc0", startBlock: 3790197 },
        WrappedEthRegistrarController: { address: "0xfed6a969aaa60e4961fcd3ebf1a2e8913ac65b72", startBlock: 3790244 },
        UnwrappedEthRegistrarController: { address: "0xfb3ce5d01e0f33f41dbb39035db9745962f1f968", startBlock: 8579988 },
        RenewalWithReferrer: { address: "0x7ab2947592c280542e680ba8f08a589009da8644", startBlock: 9447519 },
        NameWrapper: { address: "0x0635513f179d50a207757e05759cbd106d7dfce8", startBlock: 3790153 },
        // The proxy at ENS's vanity address: the implementation behind it is upgraded, the address stays.
        UniversalResolver: { address: "0xeeeeeeee14d718c2b47d9923deab1335e144eeee", startBlock: 8928790 },
        DefaultReverseRegistrar: { address: "0x4f382928805ba0e23b30cfb75fc9e848e82dfd47", startBlock: 8579966 },
        // Seaport 1.5: tokenscope records the sales of name tokens from its OrderFulfilled (docs/api.md, /api/name-sales).
        Seaport: { address: "0x00000000000000adc04c56bf30ac9d3c0aaf14dc", startBlock: 3365529 },
      },
    },
    basenames: {
      chain: baseSepolia,
      managedName: "basetest.eth",
      contracts: {
        Registry: { address: "0x1493b2567056c2181630115660963e13a8e32735", startBlock: 13012458 },
        Resolver: { startBlock: 13012458 },
        BaseRegistrar: { address: "0xa0c70ec36c010b55e3c434d6c6ebeec50c705794", startBlock: 13012465 },
        EARegistrarController: { address: "0x3a0e8c2a0a28f396a5e5b69edb2e630311f1517a", startBlock: 13041164 },
        RegistrarController: { address: "0x49ae3cc2e3aa768b1e5654f5d3c6002144a59581", startBlock: 13298580 },
        UpgradeableRegistrarController: { address: "0x82c858cdf64b3d893fe54962680edfddc37e94c8", startBlock: 29896051 },
      },
    },
    lineanames: {
      chain: lineaSepolia,
      managedName: "linea-sepolia.eth",
      contracts: {
        Registry: { address: "0x5b2636f0f2137b4ae722c01dd5122d7d3e9541f7", startBlock: 2395094 },
        Resolver: { startBlock: 2395094 },
        BaseRegistrar: { address: "0x83475a84c0ea834f06c8e636a62631e7d2e07a44", startBlock: 2395099 },
        EthRegistrarController: { address: "0x0f81e3b3a32dfe1b8a08d3c0061d852337a09338", startBlock: 2395231 },
        NameWrapper: { address: "0xf127de9e039a789806fed4c6b1c0f3affea9425e", startBlock: 2395202 },
      },
    },
    reverseBase: {
      chain: baseSepolia,
      contracts: {
        L2ReverseRegistrar: { address: "0x00000beef055f7934784d6d81b6bc86665630dba", startBlock: 21788010 },
      },
    },
    reverseLinea: {
      chain: lineaSepolia,
      contracts: { L2ReverseRegistrar: { address: "0x00000beef055f7934784d6d81b6bc86665630dba", startBlock: 9267966 } },
    },
    reverseOptimism: {
      chain: optimismSepolia,
      contracts: {
        L2ReverseRegistrar: { address: "0x00000beef055f7934784d6d81b6bc86665630dba", startBlock: 23770766 },
      },
    },
    reverseArbitrum: {
      chain: arbitrumSepolia,
      contracts: {
        L2ReverseRegistrar: { address: "0x00000beef055f7934784d6d81b6bc86665630dba", startBlock: 123142726 },
      },
    },
    reverseScroll: {
      chain: scrollSepolia,
      contracts: { L2ReverseRegistrar: { address: "0x00000beef055f7934784d6d81b6bc86665630dba", startBlock: 8175276 } },
    },
  },
};
