import type { Abi } from "viem";
import { loadRealEnsContracts, type RealEnsContracts } from "./artifacts";
import type { Ensv2ContractName } from "./deploy/ensv2";
import { type CompiledContract, compileContracts } from "./solc";

/** Our Solidity contracts in devnet/contracts (compiled, cached). */
export type OwnContractName =
  | "BasenamesBaseRegistrar"
  | "BasenamesRegistrarController"
  | "DevnetERC20"
  | "DevnetERC1155Traffic"
  | "DevnetPriceOracle"
  | "DevnetSeaport"
  | "LineanamesRegistrarController"
  | "ModernResolver"
  | "NameWrapper"
  | "StandaloneReverseRegistrar"
  | "ThreeDNSResolver"
  | "ThreeDNSToken"
  | "UniversalRegistrarRenewalWithReferrer"
  | "UniversalResolver"
  | "UnwrappedEthRegistrarController"
  | "WrappedEthRegistrarController"
  | Ensv2ContractName;

export interface DevnetContracts {
  own: Record<OwnContractName, CompiledContract>;
  real: RealEnsContracts;
}

let cached: DevnetContracts | undefined;

/**
 * Every contract the devnet deploys (abi + bytecode): our own, compiled with solc, and the real ENS truffle builds.
 * Tests elsewhere use `devnetAbis()` to read the deployed contracts with eth_call.
 */
export function loadDevnetContracts(): DevnetContracts {
  cached ??= { own: compileContracts() as Record<OwnContractName, CompiledContract>, real: loadRealEnsContracts() };
  return cached;
}

/** ABIs by contract name (ours and the real ENS ones), e.g. `devnetAbis().NameWrapper`. */
export function devnetAbis(): Record<OwnContractName | keyof RealEnsContracts, Abi> {
  const { own, real } = loadDevnetContracts();
  const out: Record<string, Abi> = {};
  for (const [name, c] of Object.entries(own)) out[name] = c.abi;
  for (const [name, c] of Object.entries(real)) out[name] = c.abi;
  return out as Record<OwnContractName | keyof RealEnsContracts, Abi>;
}

/**
 * Which contract (by name above) stands behind each manifest contract: what a test should read it with.
 * Resolver entries list every resolver contract deployed on that chain.
 */
export const MANIFEST_CONTRACT_SOURCES: Record<string, Record<string, string[]>> = {
  ensroot: {
    RegistryOld: ["ENSRegistry"],
    Registry: ["ENSRegistryWithFallback"],
    Resolver: ["PublicResolver", "LegacyPublicResolver", "ModernResolver"],
    BaseRegistrar: ["BaseRegistrarImplementation"],
    LegacyEthRegistrarController: ["ETHRegistrarController"],
    WrappedEthRegistrarController: ["WrappedEthRegistrarController"],
    UnwrappedEthRegistrarController: ["UnwrappedEthRegistrarController"],
    RenewalWithReferrer: ["UniversalRegistrarRenewalWithReferrer"],
    NameWrapper: ["NameWrapper"],
    UniversalResolver: ["UniversalResolver"],
    ReverseRegistrar: ["ReverseRegistrar"],
    DefaultReverseRegistrar: ["StandaloneReverseRegistrar"],
    Seaport: ["DevnetSeaport"],
  },
  basenames: {
    Registry: ["ENSRegistry"],
    Resolver: ["ModernResolver"],
    BaseRegistrar: ["BasenamesBaseRegistrar"],
    EARegistrarController: ["BasenamesRegistrarController"],
    RegistrarController: ["BasenamesRegistrarController"],
    UpgradeableRegistrarController: ["BasenamesRegistrarController"],
  },
  lineanames: {
    Registry: ["ENSRegistry"],
    Resolver: ["ModernResolver"],
    BaseRegistrar: ["BaseRegistrarImplementation"],
    EthRegistrarController: ["LineanamesRegistrarController"],
    NameWrapper: ["NameWrapper"],
  },
  threednsBase: {
    ThreeDNSToken: ["ThreeDNSToken"],
    ThreeDNSResolver: ["ThreeDNSResolver"],
  },
  reverseBase: { L2ReverseRegistrar: ["StandaloneReverseRegistrar"] },
  reverseLinea: { L2ReverseRegistrar: ["StandaloneReverseRegistrar"] },
  // The rehearsal's Optimism chain only.
  threednsOptimism: {
    ThreeDNSToken: ["ThreeDNSToken"],
    ThreeDNSResolver: ["ThreeDNSResolver"],
  },
  reverseOptimism: { L2ReverseRegistrar: ["StandaloneReverseRegistrar"] },
  // The reverse-only chains of LOCAL_DEVNET_SHAPE_WITH_REVERSE_L2S and the rehearsal.
  reverseArbitrum: { L2ReverseRegistrar: ["StandaloneReverseRegistrar"] },
  reverseScroll: { L2ReverseRegistrar: ["StandaloneReverseRegistrar"] },
};
