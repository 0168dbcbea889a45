import { type Address, zeroHash } from "viem";
import { Chain } from "../chain";
import { loadDevnetContracts } from "../contracts";
import { dnsWire, ETH_NODE, labelhash, managedNameOf } from "../names";
import { MAX_COMMITMENT_AGE, MIN_COMMITMENT_AGE } from "./root";
import type { ChainDeployment, Deployed } from "./types";

export type LineaContract =
  | "Registry"
  | "BaseRegistrar"
  | "NameWrapper"
  | "PriceOracle"
  | "EthRegistrarController"
  | "Resolver"
  | "L2ReverseRegistrar";

/**
 * The "linea" chain: Lineanames on the real ENS registry and base registrar (for linea.eth), our NameWrapper
 * (every controller registration is wrapped, as on mainnet), the Lineanames controller with its owner and PoH
 * paths (`pohAccounts` are marked verified), an L2 resolver and the L2 reverse registrar.
 */
export async function deployLinea(chain: Chain, pohAccounts: Address[]): Promise<ChainDeployment<LineaContract>> {
  const { own, real } = loadDevnetContracts();
  const me = chain.deployer;
  const c = {} as Record<LineaContract, Deployed>;
  const firstBlock = (await chain.blockNumber()) + 1;
  const registry = real.ENSRegistry.abi;
  const managed = managedNameOf(chain, "linea");

  c.Registry = await chain.deploy("Registry", real.ENSRegistry);
  c.BaseRegistrar = await chain.deploy("BaseRegistrar", real.BaseRegistrarImplementation, [
    c.Registry.address,
    managed.node,
  ]);
  await chain.send([
    Chain.call(me, c.Registry.address, registry, "setSubnodeOwner", [zeroHash, labelhash("eth"), me], "eth"),
  ]);
  await chain.send([
    Chain.call(
      me,
      c.Registry.address,
      registry,
      "setSubnodeOwner",
      [ETH_NODE, labelhash(managed.label), c.BaseRegistrar.address],
      managed.name,
    ),
  ]);
  c.NameWrapper = await chain.deploy("NameWrapper", own.NameWrapper, [
    c.Registry.address,
    c.BaseRegistrar.address,
    managed.node,
    dnsWire([managed.label, "eth"]),
  ]);
  c.PriceOracle = await chain.deploy("PriceOracle", own.DevnetPriceOracle);
  c.EthRegistrarController = await chain.deploy("EthRegistrarController", own.LineanamesRegistrarController, [
    c.BaseRegistrar.address,
    c.Registry.address,
    managed.node,
    c.PriceOracle.address,
    MIN_COMMITMENT_AGE,
    MAX_COMMITMENT_AGE,
    c.NameWrapper.address,
  ]);
  c.Resolver = await chain.deploy("Resolver", own.ModernResolver, [c.Registry.address, c.NameWrapper.address]);
  c.L2ReverseRegistrar = await chain.deploy("L2ReverseRegistrar", own.StandaloneReverseRegistrar);
  await chain.send([
    Chain.call(
      me,
      c.BaseRegistrar.address,
      real.BaseRegistrarImplementation.abi,
      "addController",
      [c.NameWrapper.address],
      "addController",
    ),
    Chain.call(
      me,
      c.NameWrapper.address,
      own.NameWrapper.abi,
      "setController",
      [c.EthRegistrarController.address, true],
      "setController",
    ),
    ...pohAccounts.map((a) =>
      Chain.call(
        me,
        c.EthRegistrarController.address,
        own.LineanamesRegistrarController.abi,
        "setPohVerified",
        [a, true],
        "setPohVerified",
      ),
    ),
  ]);
  return { chain, contracts: c, firstBlock };
}
