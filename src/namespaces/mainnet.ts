import type { Namespace } from "./types";

const mainnet = { id: 1, name: "mainnet" };
const base = { id: 8453, name: "base" };
const linea = { id: 59144, name: "linea" };
const optimism = { id: 10, name: "optimism" };
const arbitrum = { id: 42161, name: "arbitrum" };
const scroll = { id: 534352, name: "scroll" };

/** Public mainnet deployments (lowercase addresses) and the blocks they were deployed at. */
export const mainnetNamespace: Namespace = {
  name: "mainnet",
  defaultRpcUrls: {},
  datasources: {
    ensroot: {
      chain: mainnet,
      managedName: "eth",
      contracts: {
        RegistryOld: { address: "0x314159265dd8dbb310642f98f50c066173c1259b", startBlock: 3327417 },
        Registry: { address: "0x00000000000c2e074ec69a0dfb2997ba6c7d2e1e", startBlock: 9380380 },
        Resolver: { startBlock: 3327417 },
        BaseRegistrar: { address: "0x57f1887a8bf19b14fc0df6fd9b2acc9af147ea85", startBlock: 9380410 },
        LegacyEthRegistrarController: { address: "0x283af0b28c62c092c9727f1ee09c02ca627eb7f5", startBlock: 9380471 },
        WrappedEthRegistrarController: { address: "0x253553366da8546fc250f225fe3d25d0c782303b", startBlock: 16925618 },
        UnwrappedEthRegistrarController: {
          address: "0x59e16fccd424cc24e280be16e11bcd56fb0ce547",
          startBlock: 22764821,
        },
        RenewalWithReferrer: { address: "0xf55575bde5953ee4272d5ce7cdd924c74d8fa81a", startBlock: 23784217 },
        NameWrapper: { address: "0xd4416b13d2b3a9abae7acd5d6c2bbdbe25686401", startBlock: 16925608 },
        // The proxy at ENS's vanity address: the implementation behind it is upgraded, the address stays.
        UniversalResolver: { address: "0xeeeeeeee14d718c2b47d9923deab1335e144eeee", startBlock: 23085558 },
        DefaultReverseRegistrar: { address: "0x283f227c4bd38ece252c4ae7ece650b0e913f1f9", startBlock: 22764819 },
        // Seaport 1.5: tokenscope records the sales of name tokens from its OrderFulfilled (docs/api.md, /api/name-sales).
        Seaport: { address: "0x00000000000000adc04c56bf30ac9d3c0aaf14dc", startBlock: 17129405 },
      },
    },
    basenames: {
      chain: base,
      managedName: "base.eth",
      contracts: {
        Registry: { address: "0xb94704422c2a1e396835a571837aa5ae53285a95", startBlock: 17571480 },
        Resolver: { startBlock: 17571480 },
        BaseRegistrar: { address: "0x03c4738ee98ae44591e1a4a4f3cab6641d95dd9a", startBlock: 17571486 },
        EARegistrarController: { address: "0xd3e6775ed9b7dc12b205c8e608dc3767b9e5efda", startBlock: 17575699 },
        RegistrarController: { address: "0x4ccb0bb02fcaba27e82a56646e81d8c5bc4119a5", startBlock: 18619035 },
        UpgradeableRegistrarController: { address: "0xa7d2607c6bd39ae9521e514026cbb078405ab322", startBlock: 35286620 },
      },
    },
    lineanames: {
      chain: linea,
      managedName: "linea.eth",
      contracts: {
        Registry: { address: "0x50130b669b28c339991d8676fa73cf122a121267", startBlock: 6682888 },
        Resolver: { startBlock: 6682888 },
        BaseRegistrar: { address: "0x6e84390dcc5195414ec91a8c56a5c91021b95704", startBlock: 6682892 },
        EthRegistrarController: { address: "0xdb75db974b1f2bd3b5916d503036208064d18295", startBlock: 6682978 },
        NameWrapper: { address: "0xa53cca02f98d590819141aa85c891e2af713c223", startBlock: 6682956 },
      },
    },
    threednsOptimism: {
      chain: optimism,
      contracts: {
        ThreeDNSToken: { address: "0xbb7b805b257d7c76ca9435b3ffe780355e4c4b17", startBlock: 110393959 },
        ThreeDNSResolver: { address: "0xf97aac6c8dbaebcb54ff166d79706e3af7a813c8", startBlock: 110393959 },
      },
    },
    threednsBase: {
      chain: base,
      contracts: {
        ThreeDNSToken: { address: "0xbb7b805b257d7c76ca9435b3ffe780355e4c4b17", startBlock: 17522624 },
        ThreeDNSResolver: { address: "0xf97aac6c8dbaebcb54ff166d79706e3af7a813c8", startBlock: 17522624 },
      },
    },
    reverseBase: {
      chain: base,
      contracts: {
        L2ReverseRegistrar: { address: "0x0000000000d8e504002cc26e3ec46d81971c1664", startBlock: 31808582 },
      },
    },
    reverseLinea: {
      chain: linea,
      contracts: {
        L2ReverseRegistrar: { address: "0x0000000000d8e504002cc26e3ec46d81971c1664", startBlock: 20173340 },
      },
    },
    reverseOptimism: {
      chain: optimism,
      contracts: {
        L2ReverseRegistrar: { address: "0x0000000000d8e504002cc26e3ec46d81971c1664", startBlock: 137403854 },
      },
    },
    reverseArbitrum: {
      chain: arbitrum,
      contracts: {
        L2ReverseRegistrar: { address: "0x0000000000d8e504002cc26e3ec46d81971c1664", startBlock: 349263357 },
      },
    },
    reverseScroll: {
      chain: scroll,
      contracts: {
        L2ReverseRegistrar: { address: "0x0000000000d8e504002cc26e3ec46d81971c1664", startBlock: 16604272 },
      },
    },
  },
};
