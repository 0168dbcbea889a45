import { type Abi, type Address, zeroAddress } from "viem";
import { Chain } from "../chain";
import { DEPLOYMENT_ROLES, MAX_EXPIRY } from "../ensv2-roles";
import { type CompiledContract, compileContracts } from "../solc";
import type { Deployed } from "./types";

export type Ensv2Contract =
  | "ENSV1Resolver"
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
  | "WrapperRegistryImpl"
  | "BatchRegistrar"
  | "LockedMigrationController"
  | "UniversalResolverV2";

/** Our ENSv2 contracts (devnet/contracts), by the name the scenario and tests read them with. */
export const ENSV2_CONTRACT_NAMES = [
  "PermissionedRegistry",
  "UserRegistry",
  "WrapperRegistry",
  "ETHRegistrar",
  "ETHRegistrarIndexedReferrer",
  "StandardRentPriceOracle",
  "PermissionedResolver",
  "VerifiableFactory",
  "UnlockedMigrationController",
  "LockedMigrationController",
  "BatchRegistrar",
  "UniversalResolverV2",
  "ENSV1Resolver",
  "MockERC20",
] as const;
export type Ensv2ContractName = (typeof ENSV2_CONTRACT_NAMES)[number];

export interface Ensv2Deployment {
  contracts: Record<Ensv2Contract, Deployed>;
  /** ABIs by contract name as compiled (PermissionedRegistry, ETHRegistrar, …). */
  abis: Record<string, Abi>;
  firstBlock: number;
}

/** The ENSv2 contracts' compiled ABIs and bytecode (devnet/contracts, one solc build with the rest). */
export function ensv2Artifacts(): Record<Ensv2ContractName, CompiledContract> {
  const all = compileContracts();
  return Object.fromEntries(ENSV2_CONTRACT_NAMES.map((name) => [name, all[name]!])) as Record<
    Ensv2ContractName,
    CompiledContract
  >;
}

// Prices in a 12-decimal unit (as the real StandardRentPriceOracle's): per year by label length in code points, one
// and two code points invalid, then 640, 160 and 5 units for three, four, five or more.
const PRICE_DECIMALS = 12;
const PRICE_SCALE = 10n ** BigInt(PRICE_DECIMALS);
const BASE_RATE_PER_YEAR = [0n, 0n, 640n, 160n, 5n].map((x) => x * PRICE_SCALE);
export const PREMIUM_PRICE_INITIAL = PRICE_SCALE * 100_000_000n;
const PREMIUM_HALVING_PERIOD = 86_400n;
const PREMIUM_PERIOD = 86_400n * 21n;

/** ETHRegistrar's commitment window and shortest registration. */
export const ENSV2_MIN_COMMITMENT_AGE = 60;
export const ENSV2_MAX_COMMITMENT_AGE = 86_400;
export const ENSV2_MIN_REGISTER_DURATION = 28 * 86_400;

const PAYMENT_TOKENS = [
  { name: "MockUSDC", symbol: "USDC", decimals: 6 },
  { name: "MockDAI", symbol: "DAI", decimals: 18 },
] as const;

/**
 * Our ENSv2 contracts on the ENS root chain, beside ENSv1 (docs/ensv2.md): the ENSv1 fallback resolver (on the
 * devnet's ENSv1 registry), the root registry, the proxy factory, `eth` registered in the root with the `.eth` registry
 * as its subregistry (linked back with `setParent`), the implementations behind user registries and resolvers (their
 * proxies come from the factory), two payment tokens, the rent price oracle, the unlocked migration controller (on the
 * devnet's NameWrapper), the `.eth` registrar, the WrapperRegistry implementation, the batch registrar, the locked
 * migration controller and the universal resolver; then the registrar, the batch registrar and both controllers get
 * their root roles on the `.eth` registry.
 */
export async function deployEnsv2(
  chain: Chain,
  v1: { nameWrapper: Address; registry: Address },
): Promise<Ensv2Deployment> {
  const artifacts = ensv2Artifacts();
  const abis: Record<string, Abi> = Object.fromEntries(Object.entries(artifacts).map(([name, a]) => [name, a.abi]));
  const me = chain.deployer;
  const c = {} as Record<Ensv2Contract, Deployed>;
  const firstBlock = (await chain.blockNumber()) + 1;
  const deploy = async (name: Ensv2Contract, artifact: Ensv2ContractName, args: unknown[] = []) => {
    c[name] = await chain.deploy(name, artifacts[artifact], args);
  };
  const call = (name: Ensv2Contract, abiOf: Ensv2ContractName, fn: string, args: unknown[]) =>
    Chain.call(me, c[name].address, abis[abiOf]!, fn, args, `ENSv2 ${name}.${fn}`);

  await deploy("ENSV1Resolver", "ENSV1Resolver", [v1.registry]);
  await deploy("RootRegistry", "PermissionedRegistry", [me, DEPLOYMENT_ROLES.ROOT_REGISTRY_ROOT]);
  await deploy("VerifiableFactory", "VerifiableFactory");
  await deploy("ETHRegistry", "PermissionedRegistry", [me, DEPLOYMENT_ROLES.ETH_REGISTRY_ROOT]);
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
  await deploy("PermissionedResolverImpl", "PermissionedResolver");
  await deploy("UserRegistryImpl", "UserRegistry");
  for (const t of PAYMENT_TOKENS) await deploy(t.name, "MockERC20", [t.symbol, t.decimals]);
  const paymentRatios = PAYMENT_TOKENS.map((t) => ({
    token: c[t.name].address,
    numer: 10n ** BigInt(Math.max(t.decimals - PRICE_DECIMALS, 0)),
    denom: 10n ** BigInt(Math.max(PRICE_DECIMALS - t.decimals, 0)),
  }));
  await deploy("StandardRentPriceOracle", "StandardRentPriceOracle", [
    c.ETHRegistry.address,
    BASE_RATE_PER_YEAR,
    PREMIUM_PRICE_INITIAL,
    PREMIUM_HALVING_PERIOD,
    PREMIUM_PERIOD,
    paymentRatios,
  ]);
  await deploy("UnlockedMigrationController", "UnlockedMigrationController", [v1.nameWrapper, c.ETHRegistry.address]);
  // The shape picks the build: contracts-v2's source, or the later one sepolia-v2 runs (other event layouts).
  await deploy("ETHRegistrar", chain.ensv2Registrar, [
    c.ETHRegistry.address,
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
  ]);
  await deploy("BatchRegistrar", "BatchRegistrar", [c.ETHRegistry.address, me]);
  await deploy("LockedMigrationController", "LockedMigrationController", [
    v1.nameWrapper,
    c.ETHRegistry.address,
    c.VerifiableFactory.address,
    c.WrapperRegistryImpl.address,
  ]);
  await deploy("UniversalResolverV2", "UniversalResolverV2", [c.RootRegistry.address]);
  await chain.send(
    (["ETHRegistrar", "BatchRegistrar"] as const)
      .map((x) =>
        call("ETHRegistry", "PermissionedRegistry", "grantRootRoles", [
          DEPLOYMENT_ROLES.ETH_REGISTRAR_ROOT,
          c[x].address,
        ]),
      )
      .concat(
        (["UnlockedMigrationController", "LockedMigrationController"] as const).map((x) =>
          call("ETHRegistry", "PermissionedRegistry", "grantRootRoles", [
            DEPLOYMENT_ROLES.MIGRATION_CONTROLLER_ROOT,
            c[x].address,
          ]),
        ),
      ),
  );
  return { contracts: c, abis, firstBlock };
}
