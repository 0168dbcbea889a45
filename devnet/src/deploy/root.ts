import { type Address, parseEther, zeroHash } from "viem";
import { Chain } from "../chain";
import { loadDevnetContracts } from "../contracts";
import { ADDR_REVERSE_NODE, dnsWire, ETH_NODE, labelhash, REVERSE_NODE } from "../names";
import type { ChainDeployment, Deployed } from "./types";

/** Commit/reveal window of every .eth-style controller on the devnet (mainnet: 60 s and 24 h). */
export const MIN_COMMITMENT_AGE = 60;
export const MAX_COMMITMENT_AGE = 86_400;

export type RootContract =
  | "RegistryOld"
  | "Registry"
  | "BaseRegistrar"
  | "UsdOracle"
  | "StablePriceOracle"
  | "LegacyEthRegistrarController"
  | "PublicResolver"
  | "LegacyPublicResolver"
  | "ReverseRegistrar"
  | "NameWrapper"
  | "PriceOracle"
  | "WrappedEthRegistrarController"
  | "UnwrappedEthRegistrarController"
  | "RenewalWithReferrer"
  | "DefaultReverseRegistrar"
  | "ModernResolver"
  | "Seaport"
  | "SaleToken"
  | "UniversalResolver";

// StablePriceOracle rents in attoUSD per second by label length (index = length − 1): 640 / 160 / 5 USD a year.
const YEAR = 31_556_952n;
const RENT_PRICES = [0n, 0n, (640n * 10n ** 18n) / YEAR, (160n * 10n ** 18n) / YEAR, (5n * 10n ** 18n) / YEAR];

/**
 * The ENS root chain, in mainnet's order: the old registry (whose `eth` the deployer holds, standing in for the
 * auction registrar), the registry with fallback, `eth` owned by the base registrar, the legacy controller with
 * the real StablePriceOracle, resolvers, `addr.reverse` owned by the ReverseRegistrar, then the NameWrapper era
 * (2023 controller) and the 2025 contracts. The deployer stays a base-registrar controller to migrate old names.
 */
export async function deployRoot(chain: Chain): Promise<ChainDeployment<RootContract>> {
  const { own, real } = loadDevnetContracts();
  const me = chain.deployer;
  const c = {} as Record<RootContract, Deployed>;
  const firstBlock = (await chain.blockNumber()) + 1;
  const call = (contract: RootContract, abiOf: { abi: import("viem").Abi }, fn: string, args: unknown[]) =>
    Chain.call(me, c[contract].address, abiOf.abi, fn, args, `${contract}.${fn}`);

  c.RegistryOld = await chain.deploy("RegistryOld", real.ENSRegistry);
  await chain.send([call("RegistryOld", real.ENSRegistry, "setSubnodeOwner", [zeroHash, labelhash("eth"), me])]);
  c.LegacyPublicResolver = await chain.deploy("LegacyPublicResolver", real.LegacyPublicResolver, [
    c.RegistryOld.address,
  ]);

  c.Registry = await chain.deploy("Registry", real.ENSRegistryWithFallback, [c.RegistryOld.address]);
  c.BaseRegistrar = await chain.deploy("BaseRegistrar", real.BaseRegistrarImplementation, [
    c.Registry.address,
    ETH_NODE,
  ]);
  await chain.send([
    call("Registry", real.ENSRegistryWithFallback, "setSubnodeOwner", [
      zeroHash,
      labelhash("eth"),
      c.BaseRegistrar.address,
    ]),
    call("Registry", real.ENSRegistryWithFallback, "setSubnodeOwner", [zeroHash, labelhash("reverse"), me]),
  ]);

  c.UsdOracle = await chain.deploy("UsdOracle", real.DummyOracle, [2000n * 10n ** 8n]);
  c.StablePriceOracle = await chain.deploy("StablePriceOracle", real.StablePriceOracle, [
    c.UsdOracle.address,
    RENT_PRICES,
  ]);
  c.LegacyEthRegistrarController = await chain.deploy("LegacyEthRegistrarController", real.ETHRegistrarController, [
    c.BaseRegistrar.address,
    c.StablePriceOracle.address,
    MIN_COMMITMENT_AGE,
    MAX_COMMITMENT_AGE,
  ]);
  c.PublicResolver = await chain.deploy("PublicResolver", real.PublicResolver, [c.Registry.address]);
  // addr.reverse must not exist yet: the ReverseRegistrar's constructor asks its current owner to hand over.
  c.ReverseRegistrar = await chain.deploy("ReverseRegistrar", real.ReverseRegistrar, [
    c.Registry.address,
    c.PublicResolver.address,
  ]);
  await chain.send([
    call("BaseRegistrar", real.BaseRegistrarImplementation, "addController", [c.LegacyEthRegistrarController.address]),
    call("BaseRegistrar", real.BaseRegistrarImplementation, "addController", [me]),
    call("Registry", real.ENSRegistryWithFallback, "setSubnodeOwner", [
      REVERSE_NODE,
      labelhash("addr"),
      c.ReverseRegistrar.address,
    ]),
  ]);

  c.NameWrapper = await chain.deploy("NameWrapper", own.NameWrapper, [
    c.Registry.address,
    c.BaseRegistrar.address,
    ETH_NODE,
    dnsWire(["eth"]),
  ]);
  c.PriceOracle = await chain.deploy("PriceOracle", own.DevnetPriceOracle);
  c.WrappedEthRegistrarController = await chain.deploy(
    "WrappedEthRegistrarController",
    own.WrappedEthRegistrarController,
    [
      c.BaseRegistrar.address,
      c.Registry.address,
      ETH_NODE,
      c.PriceOracle.address,
      MIN_COMMITMENT_AGE,
      MAX_COMMITMENT_AGE,
      c.NameWrapper.address,
    ],
  );
  c.ModernResolver = await chain.deploy("ModernResolver", own.ModernResolver, [
    c.Registry.address,
    c.NameWrapper.address,
  ]);
  await chain.send([
    call("BaseRegistrar", real.BaseRegistrarImplementation, "addController", [c.NameWrapper.address]),
    call("NameWrapper", own.NameWrapper, "setController", [c.WrappedEthRegistrarController.address, true]),
  ]);

  c.DefaultReverseRegistrar = await chain.deploy("DefaultReverseRegistrar", own.StandaloneReverseRegistrar);
  c.UnwrappedEthRegistrarController = await chain.deploy(
    "UnwrappedEthRegistrarController",
    own.UnwrappedEthRegistrarController,
    [
      c.BaseRegistrar.address,
      c.Registry.address,
      ETH_NODE,
      c.PriceOracle.address,
      MIN_COMMITMENT_AGE,
      MAX_COMMITMENT_AGE,
    ],
  );
  await chain.send([
    call("BaseRegistrar", real.BaseRegistrarImplementation, "addController", [
      c.UnwrappedEthRegistrarController.address,
    ]),
  ]);
  c.RenewalWithReferrer = await chain.deploy("RenewalWithReferrer", own.UniversalRegistrarRenewalWithReferrer, [
    c.WrappedEthRegistrarController.address,
  ]);
  // Name sales (scenario/sales.ts): a Seaport 1.5 stand-in, at mainnet's address when the shape places it, and an ERC-20.
  c.Seaport = await chain.deploy("Seaport", own.DevnetSeaport);
  c.SaleToken = await chain.deploy("SaleToken", own.DevnetERC20);
  // Last, so every earlier contract keeps its address.
  c.UniversalResolver = await chain.deploy("UniversalResolver", own.UniversalResolver, [c.Registry.address]);
  return { chain, contracts: c, firstBlock };
}

/** Generous payment for any registration or renewal; controllers refund the excess. */
export const PAYMENT = parseEther("5");
export type { Address };
