import { type Abi, type Address, zeroAddress } from "viem";
import { compileEnsv2 } from "../../ensv2/compile";
import { DEPLOYMENT_ROLES, MAX_EXPIRY } from "../../ensv2/roles";
import { Chain } from "../chain";
import type { Deployed } from "./types";

export type Ensv2Contract =
  | "BatchGatewayProvider"
  | "ENSV1Resolver"
  | "HCAFactory"
  | "SimpleRegistryMetadata"
  | "RootRegistry"
  | "VerifiableFactory"
  | "ETHRegistry"
  | "PermissionedResolverImpl"
  | "UserRegistryImpl"
  | "MockUSDC"
  | "MockDAI"
  | "StandardRentPriceOracle"
  | "ETHRegistrar"
  | "UnlockedMigrationController"
  | "ApprovedUpgradeGate"
  | "WrapperRegistryImpl"
  | "BatchRegistrar"
  | "LockedMigrationController"
  | "UniversalResolverV2";

export interface Ensv2Deployment {
  contracts: Record<Ensv2Contract, Deployed>;
  /** ABIs by contract name as compiled (PermissionedRegistry, ETHRegistrar, …). */
  abis: Record<string, Abi>;
  firstBlock: number;
}

// StandardRentPriceOracle as contracts-v2's deploy/02_StandardRentPriceOracle.ts configures it (prices in 12 decimals).
const SEC_PER_YEAR = 31_557_600n;
const SEC_PER_DAY = 86_400n;
const PRICE_DECIMALS = 12;
const PRICE_SCALE = 10n ** BigInt(PRICE_DECIMALS);
const BASE_RATE_PER_CP = [0n, 0n, PRICE_SCALE * 640n, PRICE_SCALE * 160n, PRICE_SCALE * 5n].map(
  (x) => (x + SEC_PER_YEAR - 1n) / SEC_PER_YEAR,
);
const DISCOUNT_SCALE = (1n << 128n) - 1n;
const discount = (numer: bigint, denom: bigint) => (DISCOUNT_SCALE * numer + denom - 1n) / denom;
const DISCOUNT_POINTS = [
  { t: SEC_PER_YEAR, value: 0n },
  { t: SEC_PER_YEAR, value: discount(1n, 10n) },
  { t: SEC_PER_YEAR, value: discount(2n, 10n) },
  { t: SEC_PER_YEAR * 2n, value: discount(2875n, 10000n) },
  { t: SEC_PER_YEAR * 5n, value: discount(325n, 1000n) },
  { t: SEC_PER_YEAR * 15n, value: discount(1n, 3n) },
];
export const PREMIUM_PRICE_INITIAL = PRICE_SCALE * 100_000_000n;
const PREMIUM_HALVING_PERIOD = SEC_PER_DAY;
const PREMIUM_PERIOD = SEC_PER_DAY * 21n;

/** ETHRegistrar's commitment window and shortest registration, as deploy/03_ETHRegistrar.ts sets them. */
export const ENSV2_MIN_COMMITMENT_AGE = 60;
export const ENSV2_MAX_COMMITMENT_AGE = 86_400;
export const ENSV2_MIN_REGISTER_DURATION = 28 * 86_400;

/**
 * The batch gateway URLs of contracts-v2's own devnet (script/deploy-constants.ts `LOCAL_BATCH_GATEWAY_URL`, set as
 * `BATCH_GATEWAY_URLS` for ens-contracts' deploy/utils/00_deploy_batch_gateway_provider.ts): the client answers batch
 * gateway requests itself (viem's `x-batch-gateway:true`). Resolution through onchain resolvers never asks for one:
 * CCIPBatcher reverts `OffchainLookup` only when a resolver does.
 */
export const ENSV2_BATCH_GATEWAY_URLS = ["x-batch-gateway:true"];

const PAYMENT_TOKENS = [
  { name: "MockUSDC", symbol: "USDC", decimals: 6 },
  { name: "MockDAI", symbol: "DAI", decimals: 18 },
] as const;

/**
 * The ENSv2 contracts on the ENS root chain, beside ENSv1, in the order and with the arguments of contracts-v2's own
 * deploy scripts (after ens-contracts' batch gateway provider, which they take): the batch gateway provider, the
 * ENSv1 fallback resolver (on the devnet's ENSv1 registry), HCA factory (its mock, as there), registry metadata, the
 * root registry, `eth` registered in it with the `.eth` registry as its subregistry, the implementations behind user
 * registries and resolvers (deployed as proxies through the VerifiableFactory), two payment tokens, the rent price
 * oracle, the unlocked migration controller (wired to the devnet's ENSv1 NameWrapper), the upgrade gate,
 * ETHRegistrar, the WrapperRegistry implementation, the batch registrar, the locked migration controller and last
 * the UniversalResolverV2 (deploy/universalResolver/).
 */
export async function deployEnsv2(
  chain: Chain,
  v1: { nameWrapper: Address; registry: Address },
): Promise<Ensv2Deployment> {
  const artifacts = compileEnsv2();
  const abis = Object.fromEntries(Object.entries(artifacts).map(([name, a]) => [name, a.abi]));
  const me = chain.deployer;
  const c = {} as Record<Ensv2Contract, Deployed>;
  const firstBlock = (await chain.blockNumber()) + 1;
  const deploy = async (name: Ensv2Contract, artifact: keyof typeof artifacts, args: unknown[] = []) => {
    c[name] = await chain.deploy(name, artifacts[artifact], args);
  };
  const call = (name: Ensv2Contract, abiOf: string, fn: string, args: unknown[]) =>
    Chain.call(me, c[name].address, artifacts[abiOf].abi, fn, args, `ENSv2 ${name}.${fn}`);

  await deploy("BatchGatewayProvider", "GatewayProvider", [me, ENSV2_BATCH_GATEWAY_URLS]);
  await deploy("ENSV1Resolver", "ENSV1Resolver", [v1.registry, c.BatchGatewayProvider.address]);
  await deploy("HCAFactory", "MockHCAFactoryBasic");
  await deploy("SimpleRegistryMetadata", "SimpleRegistryMetadata", [c.HCAFactory.address]);
  await deploy("RootRegistry", "PermissionedRegistry", [
    c.HCAFactory.address,
    c.SimpleRegistryMetadata.address,
    me,
    DEPLOYMENT_ROLES.ROOT_REGISTRY_ROOT,
  ]);
  await deploy("VerifiableFactory", "VerifiableFactory");
  await deploy("ETHRegistry", "PermissionedRegistry", [
    c.HCAFactory.address,
    c.SimpleRegistryMetadata.address,
    me,
    DEPLOYMENT_ROLES.ETH_REGISTRY_ROOT,
  ]);
  await chain.send([
    call("RootRegistry", "PermissionedRegistry", "register", [
      "eth",
      me,
      c.ETHRegistry.address,
      zeroAddress,
      DEPLOYMENT_ROLES.ETH_TOKEN,
      MAX_EXPIRY,
    ]),
    call("ETHRegistry", "PermissionedRegistry", "setParent", [c.RootRegistry.address, "eth"]),
  ]);
  await deploy("PermissionedResolverImpl", "PermissionedResolver", [c.HCAFactory.address]);
  await deploy("UserRegistryImpl", "UserRegistry", [c.HCAFactory.address, c.SimpleRegistryMetadata.address]);
  for (const t of PAYMENT_TOKENS) await deploy(t.name, "MockERC20", [t.symbol, t.decimals, c.HCAFactory.address]);
  const paymentRatios = PAYMENT_TOKENS.map((t) => ({
    token: c[t.name].address,
    numer: 10n ** BigInt(Math.max(t.decimals - PRICE_DECIMALS, 0)),
    denom: 10n ** BigInt(Math.max(PRICE_DECIMALS - t.decimals, 0)),
  }));
  await deploy("StandardRentPriceOracle", "StandardRentPriceOracle", [
    me,
    c.ETHRegistry.address,
    BASE_RATE_PER_CP,
    DISCOUNT_POINTS,
    PREMIUM_PRICE_INITIAL,
    PREMIUM_HALVING_PERIOD,
    PREMIUM_PERIOD,
    paymentRatios,
  ]);
  await deploy("UnlockedMigrationController", "UnlockedMigrationController", [v1.nameWrapper, c.ETHRegistry.address]);
  await deploy("ApprovedUpgradeGate", "ApprovedUpgradeGate", [me]);
  await deploy("ETHRegistrar", "ETHRegistrar", [
    c.ETHRegistry.address,
    c.HCAFactory.address,
    me,
    BigInt(ENSV2_MIN_COMMITMENT_AGE),
    BigInt(ENSV2_MAX_COMMITMENT_AGE),
    BigInt(ENSV2_MIN_REGISTER_DURATION),
    c.StandardRentPriceOracle.address,
  ]);
  await deploy("WrapperRegistryImpl", "WrapperRegistry", [
    v1.nameWrapper,
    c.VerifiableFactory.address,
    c.ENSV1Resolver.address,
    c.HCAFactory.address,
    c.SimpleRegistryMetadata.address,
    c.ApprovedUpgradeGate.address,
  ]);
  await deploy("BatchRegistrar", "BatchRegistrar", [c.ETHRegistry.address, me]);
  await deploy("LockedMigrationController", "LockedMigrationController", [
    v1.nameWrapper,
    c.ETHRegistry.address,
    c.VerifiableFactory.address,
    c.WrapperRegistryImpl.address,
  ]);
  await deploy("UniversalResolverV2", "UniversalResolverV2", [c.RootRegistry.address, c.BatchGatewayProvider.address]);
  await chain.send([
    call("ETHRegistry", "PermissionedRegistry", "grantRootRoles", [
      DEPLOYMENT_ROLES.ETH_REGISTRAR_ROOT,
      c.ETHRegistrar.address,
    ]),
    call("ETHRegistry", "PermissionedRegistry", "grantRootRoles", [
      DEPLOYMENT_ROLES.MIGRATION_CONTROLLER_ROOT,
      c.UnlockedMigrationController.address,
    ]),
    call("ETHRegistry", "PermissionedRegistry", "grantRootRoles", [
      DEPLOYMENT_ROLES.ETH_REGISTRAR_ROOT,
      c.BatchRegistrar.address,
    ]),
    call("ETHRegistry", "PermissionedRegistry", "grantRootRoles", [
      DEPLOYMENT_ROLES.MIGRATION_CONTROLLER_ROOT,
      c.LockedMigrationController.address,
    ]),
  ]);
  return { contracts: c, abis, firstBlock };
}
