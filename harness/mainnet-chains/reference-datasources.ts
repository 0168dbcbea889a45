import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Abi, Address } from "viem";
import { npmPackOnce } from "../../devnet/src/npm-pack";
import { cacheDir } from "../../devnet/src/paths";
import type { DatasourceName, NamespaceName } from "../../src/namespaces/types";

/*
 * The independent source of mainnet, sepolia and sepolia-v2 addresses, start blocks and ABIs: the peer's published
 * `@ensnode/datasources`. The rehearsal places contracts and starts its indexing from these, never from our own
 * src/namespaces/ files, so a wrong address or start block of ours shows up as a missing event.
 *
 * 1.17.0 imports `enssdk`, which the npm registry does not serve, so the package cannot be a dependency: it is
 * unpacked with `npm pack` into .cache/ and its one use of enssdk (a lowercase helper in `identifyDatasourceContracts`,
 * which we never call) is answered by a two-line local stand-in. Its other imports (viem, @ponder/utils) resolve
 * from our node_modules.
 */
export const REFERENCE_PACKAGE = { name: "@ensnode/datasources", version: "1.17.0" } as const;

/** Every namespace of ours the package also ships. */
export type PublishedNamespaceName = Exclude<NamespaceName, "devnet">;
/** The namespaces the rehearsal plays: all of them. */
export const REHEARSED_NAMESPACES = [
  "mainnet",
  "sepolia",
  "sepolia-v2",
] as const satisfies readonly PublishedNamespaceName[];
export type ReferenceNamespaceName = (typeof REHEARSED_NAMESPACES)[number];

export interface ReferenceContract {
  /** Absent for contracts matched at any address (resolvers). */
  address?: Address;
  startBlock: number;
  abi: Abi;
  /** Where the package lists it: `<their datasource>/<their contract>`. */
  source: string;
}

export interface ReferenceDatasource {
  chainId: number;
  chainName: string;
  contracts: Record<string, ReferenceContract>;
}

/** The package's datasources in our names (datasource and contract), for the ones we index. */
export type ReferenceNamespace = Partial<Record<DatasourceName, ReferenceDatasource>>;

/**
 * Which of their datasource/contract pairs stands for which of ours. Their names differ where ours follow the
 * subgraph's (RegistryOld) or where we group differently (the default reverse registrar under ensroot).
 */
export const REFERENCE_NAMES: Record<DatasourceName, Record<string, string>> = {
  ensroot: {
    RegistryOld: "ensroot/ENSv1RegistryOld",
    Registry: "ensroot/ENSv1Registry",
    Resolver: "ensroot/Resolver",
    BaseRegistrar: "ensroot/BaseRegistrar",
    LegacyEthRegistrarController: "ensroot/LegacyEthRegistrarController",
    WrappedEthRegistrarController: "ensroot/WrappedEthRegistrarController",
    UnwrappedEthRegistrarController: "ensroot/UnwrappedEthRegistrarController",
    RenewalWithReferrer: "ensroot/UniversalRegistrarRenewalWithReferrer",
    NameWrapper: "ensroot/NameWrapper",
    UniversalResolver: "ensroot/UniversalResolver",
    DefaultReverseRegistrar: "rrRoot/DefaultReverseRegistrar",
    // Their own datasource on the ENS root chain; ours sits with the name tokens it trades (tokenscope).
    Seaport: "seaport/Seaport1_5",
  },
  basenames: {
    Registry: "basenames/Registry",
    Resolver: "basenames/Resolver",
    BaseRegistrar: "basenames/BaseRegistrar",
    EARegistrarController: "basenames/EARegistrarController",
    RegistrarController: "basenames/RegistrarController",
    UpgradeableRegistrarController: "basenames/UpgradeableRegistrarController",
  },
  lineanames: {
    Registry: "lineanames/Registry",
    Resolver: "lineanames/Resolver",
    BaseRegistrar: "lineanames/BaseRegistrar",
    EthRegistrarController: "lineanames/EthRegistrarController",
    NameWrapper: "lineanames/NameWrapper",
  },
  threednsOptimism: { ThreeDNSToken: "threednsOptimism/ThreeDNSToken", ThreeDNSResolver: "threednsOptimism/Resolver" },
  threednsBase: { ThreeDNSToken: "threednsBase/ThreeDNSToken", ThreeDNSResolver: "threednsBase/Resolver" },
  reverseBase: { L2ReverseRegistrar: "rrBase/L2ReverseRegistrar" },
  reverseLinea: { L2ReverseRegistrar: "rrLinea/L2ReverseRegistrar" },
  reverseOptimism: { L2ReverseRegistrar: "rrOptimism/L2ReverseRegistrar" },
  reverseArbitrum: { L2ReverseRegistrar: "rrArbitrum/L2ReverseRegistrar" },
  reverseScroll: { L2ReverseRegistrar: "rrScroll/L2ReverseRegistrar" },
  // sepolia-v2 only: mainnet and sepolia have no ENSv2 deployment.
  ensv2: {
    Registry: "ENSv2Root/Registry",
    RootRegistry: "ENSv2Root/RootRegistry",
    ETHRegistry: "ENSv2Root/ETHRegistry",
    ETHRegistrar: "ENSv2Root/ETHRegistrar",
  },
};

export interface TheirContract {
  abi: Abi;
  address?: string | string[];
  startBlock: number;
}
export interface TheirDatasource {
  chain: { id: number; name: string };
  contracts: Record<string, TheirContract>;
}
/** The package's own shape: their datasource names → chain and contracts. */
export type TheirNamespace = Record<string, TheirDatasource>;

const packageDir = join(cacheDir, `ensnode-datasources-${REFERENCE_PACKAGE.version}`);

async function importPackage(log: (line: string) => void): Promise<{ getENSNamespace(name: string): TheirNamespace }> {
  npmPackOnce(REFERENCE_PACKAGE.name, REFERENCE_PACKAGE.version, packageDir, "dist/index.js", log);
  const stub = join(packageDir, "node_modules", "enssdk");
  mkdirSync(stub, { recursive: true });
  writeFileSync(join(stub, "package.json"), JSON.stringify({ name: "enssdk", type: "module", exports: "./index.js" }));
  writeFileSync(join(stub, "index.js"), "export const toNormalizedAddress = (address) => address.toLowerCase();\n");
  return import(pathToFileURL(join(packageDir, "dist", "index.js")).href);
}

/** The package's whole namespace as it ships (every datasource, their names), for comparisons. */
export async function loadTheirNamespace(
  name: PublishedNamespaceName,
  log: (line: string) => void = () => {},
): Promise<TheirNamespace> {
  const pkg = await importPackage(log);
  return pkg.getENSNamespace(name);
}

const ZERO_ADDRESS = `0x${"0".repeat(40)}`;

/**
 * The package's datasources that we index, in our names. A contract the package lacks is left out, and so is one it
 * lists at the zero address: the deployment has no such contract (sepolia-v2's redeployed ENSv1 has no old registry).
 */
export async function loadReferenceNamespace(
  name: PublishedNamespaceName,
  log: (line: string) => void = () => {},
): Promise<ReferenceNamespace> {
  const theirs = await loadTheirNamespace(name, log);
  const out: ReferenceNamespace = {};
  for (const [ours, contracts] of Object.entries(REFERENCE_NAMES) as [DatasourceName, Record<string, string>][]) {
    for (const [contract, source] of Object.entries(contracts)) {
      const [theirDs, theirContract] = source.split("/");
      const ds = theirs[theirDs!];
      const c = ds?.contracts[theirContract!];
      if (!ds || !c || c.address === ZERO_ADDRESS) continue;
      if (Array.isArray(c.address))
        throw new Error(`${source}: the package lists several addresses; the rehearsal places one`);
      const entry = (out[ours] ??= { chainId: ds.chain.id, chainName: ds.chain.name, contracts: {} });
      if (entry.chainId !== ds.chain.id)
        throw new Error(`${ours}: the package puts its contracts on chains ${entry.chainId} and ${ds.chain.id}`);
      entry.contracts[contract] = {
        ...(c.address ? { address: c.address.toLowerCase() as Address } : {}),
        startBlock: c.startBlock,
        abi: c.abi,
        source,
      };
    }
  }
  return out;
}
