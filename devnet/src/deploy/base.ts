import { type Address, zeroAddress, zeroHash } from "viem";
import { Chain } from "../chain";
import { loadDevnetContracts } from "../contracts";
import { ETH_NODE, labelhash, managedNameOf } from "../names";
import type { ChainDeployment, Deployed } from "./types";

export type BaseContract =
  | "Registry"
  | "BaseRegistrar"
  | "Resolver"
  | "PriceOracle"
  | "EARegistrarController"
  | "RegistrarController"
  | "UpgradeableRegistrarController"
  | "ThreeDNSToken"
  | "ThreeDNSResolver"
  | "L2ReverseRegistrar";

/** Registrations the base registrar makes before any controller exists (mainnet preminted names this way). */
export interface Premint {
  label: string;
  owner: Address;
}

export const PREMINT_DURATION = 365 * 24 * 3600;

/**
 * The "base" chain: Basenames (a real ENS registry with base.eth owned by our Basenames base registrar; names
 * preminted with `registerOnly` before the early-access, regular and upgradeable controllers are deployed; an L2
 * resolver that trusts the controllers), the 3DNS token with its resolver, and the L2 reverse registrar.
 */
export async function deployBase(chain: Chain, premints: Premint[]): Promise<ChainDeployment<BaseContract>> {
  const { own, real } = loadDevnetContracts();
  const me = chain.deployer;
  const c = {} as Record<BaseContract, Deployed>;
  const firstBlock = (await chain.blockNumber()) + 1;
  const registry = real.ENSRegistry.abi;
  const managed = managedNameOf(chain, "base");

  c.Registry = await chain.deploy("Registry", real.ENSRegistry);
  c.BaseRegistrar = await chain.deploy("BaseRegistrar", own.BasenamesBaseRegistrar, [c.Registry.address, managed.node]);
  c.Resolver = await chain.deploy("Resolver", own.ModernResolver, [c.Registry.address, zeroAddress]);
  await chain.send([
    Chain.call(me, c.Registry.address, registry, "setSubnodeOwner", [zeroHash, labelhash("eth"), me], "eth"),
  ]);
  await chain.send([
    Chain.call(
      me,
      c.Registry.address,
      registry,
      "setSubnodeRecord",
      [ETH_NODE, labelhash(managed.label), c.BaseRegistrar.address, c.Resolver.address, 0n],
      managed.name,
    ),
    Chain.call(
      me,
      c.BaseRegistrar.address,
      own.BasenamesBaseRegistrar.abi,
      "addController",
      [me],
      "addController(deployer)",
    ),
  ]);
  await chain.send(
    premints.map((p) =>
      Chain.call(
        me,
        c.BaseRegistrar.address,
        own.BasenamesBaseRegistrar.abi,
        "registerOnly",
        [BigInt(labelhash(p.label)), p.owner, BigInt(PREMINT_DURATION)],
        `premint ${p.label}`,
      ),
    ),
  );

  c.PriceOracle = await chain.deploy("PriceOracle", own.DevnetPriceOracle);
  const controllerArgs = (renewable: boolean) => [
    c.BaseRegistrar.address,
    c.PriceOracle.address,
    managed.node,
    renewable,
  ];
  c.EARegistrarController = await chain.deploy(
    "EARegistrarController",
    own.BasenamesRegistrarController,
    controllerArgs(false),
  );
  c.RegistrarController = await chain.deploy(
    "RegistrarController",
    own.BasenamesRegistrarController,
    controllerArgs(true),
  );
  c.UpgradeableRegistrarController = await chain.deploy(
    "UpgradeableRegistrarController",
    own.BasenamesRegistrarController,
    controllerArgs(true),
  );
  const controllers = [c.EARegistrarController, c.RegistrarController, c.UpgradeableRegistrarController];
  await chain.send(
    controllers.flatMap((ctl) => [
      Chain.call(
        me,
        c.BaseRegistrar.address,
        own.BasenamesBaseRegistrar.abi,
        "addController",
        [ctl.address],
        "addController",
      ),
      Chain.call(me, c.Resolver.address, own.ModernResolver.abi, "setTrusted", [ctl.address, true], "setTrusted"),
    ]),
  );

  c.ThreeDNSToken = await chain.deploy("ThreeDNSToken", own.ThreeDNSToken);
  // 3DNS's resolver authorises token holders: it reads owner(node) from the token, as it would from a registry.
  c.ThreeDNSResolver = await chain.deploy("ThreeDNSResolver", own.ThreeDNSResolver, [c.ThreeDNSToken.address]);
  c.L2ReverseRegistrar = await chain.deploy("L2ReverseRegistrar", own.StandaloneReverseRegistrar);
  return { chain, contracts: c, firstBlock };
}
