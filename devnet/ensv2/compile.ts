import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative } from "node:path";
import type { Abi, Hex } from "viem";
import { cacheDir, devnetDir, repoRoot } from "../src/paths";

/**
 * Compiles the ENSv2 contracts (ensdomains/contracts-v2, vendored in devnet/ensv2/vendor, see SOURCES.md there) with
 * the compiler and settings of that repository's hardhat build: solc 0.8.25, optimizer 1000 runs, cancun.
 *
 * Source unit names follow the repository's foundry layout (`src/…`, `lib/<dependency>/…`) so its own
 * remappings.txt applies unchanged; the `lib/` dependencies are read from npm (OpenZeppelin) or the vendor folder.
 */

export interface Ensv2Artifact {
  abi: Abi;
  bytecode: Hex;
}

export const ENSV2_SOLC_VERSION = "0.8.25";
const vendorDir = join(devnetDir, "ensv2", "vendor");
const openZeppelin = join(repoRoot, "node_modules", "@openzeppelin");

/** Where each foundry `lib/` (and the repository's own folders) is read from here. */
const roots: [prefix: string, dir: string][] = [
  ["lib/openzeppelin-contracts-upgradeable/contracts/", join(openZeppelin, "contracts-upgradeable")],
  ["lib/openzeppelin-contracts-v4/contracts/", join(openZeppelin, "contracts-v4")],
  ["lib/openzeppelin-contracts/contracts/", join(openZeppelin, "contracts")],
  ["lib/ens-contracts/", join(vendorDir, "ens-contracts")],
  ["lib/verifiable-factory/", join(vendorDir, "verifiable-factory")],
  ["src/", join(vendorDir, "contracts-v2", "src")],
  ["test/", join(vendorDir, "contracts-v2", "test")],
];

/** contracts-v2's contracts/remappings.txt at the pinned commit, less the test-only and forge-std lines. */
const remappings = [
  "@openzeppelin/contracts/=lib/openzeppelin-contracts/contracts/",
  "@openzeppelin/contracts-upgradeable/=lib/openzeppelin-contracts-upgradeable/contracts/",
  "@openzeppelin/contracts-v5/=lib/openzeppelin-contracts/contracts/",
  "@ens/contracts/=lib/ens-contracts/contracts/",
  "@ens/contracts/utils/LibMem/=src/utils/",
  "@ensdomains/verifiable-factory/=lib/verifiable-factory/src/",
  "lib/ens-contracts/contracts/utils/LibMem/=src/utils/",
  "lib/ens-contracts/:@openzeppelin/contracts=lib/openzeppelin-contracts-v4/contracts",
  "lib/ens-contracts/:@openzeppelin/contracts-v5=lib/openzeppelin-contracts/contracts",
  "~src/=src/",
  "~test/=test/",
];

/** The contracts the devnet deploys, by source unit; everything they import is compiled with them. */
export const ENSV2_ENTRY_POINTS: Record<string, string> = {
  PermissionedRegistry: "src/registry/PermissionedRegistry.sol",
  UserRegistry: "src/registry/UserRegistry.sol",
  SimpleRegistryMetadata: "src/registry/SimpleRegistryMetadata.sol",
  ETHRegistrar: "src/registrar/ETHRegistrar.sol",
  StandardRentPriceOracle: "src/registrar/StandardRentPriceOracle.sol",
  PermissionedResolver: "src/resolver/PermissionedResolver.sol",
  VerifiableFactory: "lib/verifiable-factory/src/VerifiableFactory.sol",
  WrapperRegistry: "src/registry/WrapperRegistry.sol",
  UnlockedMigrationController: "src/migration/UnlockedMigrationController.sol",
  LockedMigrationController: "src/migration/LockedMigrationController.sol",
  BatchRegistrar: "src/registrar/BatchRegistrar.sol",
  ApprovedUpgradeGate: "src/registry/ApprovedUpgradeGate.sol",
  UniversalResolverV2: "src/universalResolver/UniversalResolverV2.sol",
  ENSV1Resolver: "src/resolver/ENSV1Resolver.sol",
  ENSV2Resolver: "src/resolver/ENSV2Resolver.sol",
  // ens-contracts' gateway provider: contracts-v2's deploy scripts take the batch gateway provider that
  // ens-contracts' deploy/utils/00_deploy_batch_gateway_provider.ts deploys (a GatewayProvider).
  GatewayProvider: "lib/ens-contracts/contracts/ccipRead/GatewayProvider.sol",
  // contracts-v2 deploys these two test mocks itself (deploy/00_HCAFactory.ts, 02_MockTokens.ts).
  MockHCAFactoryBasic: "test/mocks/MockHCAFactoryBasic.sol",
  MockERC20: "test/mocks/MockERC20.sol",
};

const settings = {
  optimizer: { enabled: true, runs: 1000 },
  evmVersion: "cancun",
  remappings,
  outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } },
};

function resolveSource(unit: string): string | undefined {
  const root = roots.find(([prefix]) => unit.startsWith(prefix));
  if (!root) return undefined;
  const path = join(root[1], unit.slice(root[0].length));
  return existsSync(path) ? path : undefined;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });
}

/** Hash of everything that can change the output: compiler, settings, entry points, vendored and npm sources. */
function cacheKey(solcVersion: string): string {
  const hash = createHash("sha256").update(solcVersion).update(JSON.stringify({ settings, ENSV2_ENTRY_POINTS }));
  for (const file of filesUnder(vendorDir)) hash.update(relative(vendorDir, file)).update(readFileSync(file));
  for (const pkg of ["contracts", "contracts-upgradeable", "contracts-v4"]) {
    hash.update(readFileSync(join(openZeppelin, pkg, "package.json")));
  }
  return hash.digest("hex");
}

type SolcOutput = {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
};

/**
 * The compiled entry-point contracts, by name. Cached under .cache/solc-ensv2/<key>.json: the first build takes
 * about 85 s on two cores (solc-js, ~350 MB), later starts read the cache.
 */
export function compileEnsv2(log: (line: string) => void = () => {}): Record<string, Ensv2Artifact> {
  const require = createRequire(import.meta.url);
  const solc = require("solc-0.8.25") as { version(): string; compile(input: string, opts?: unknown): string };
  if (!solc.version().startsWith(`${ENSV2_SOLC_VERSION}+`)) {
    throw new Error(`ENSv2 needs solc ${ENSV2_SOLC_VERSION}, the npm alias solc-0.8.25 is ${solc.version()}`);
  }
  const cachePath = join(cacheDir, "solc-ensv2", `${cacheKey(solc.version())}.json`);
  if (existsSync(cachePath)) return JSON.parse(readFileSync(cachePath, "utf8"));

  log(`compiling ENSv2 contracts with solc ${solc.version()}`);
  const sources: Record<string, { content: string }> = {};
  for (const unit of Object.values(ENSV2_ENTRY_POINTS)) {
    const path = resolveSource(unit);
    if (!path) throw new Error(`ENSv2 entry point ${unit} is not vendored`);
    sources[unit] = { content: readFileSync(path, "utf8") };
  }
  const missing = new Set<string>();
  const output = JSON.parse(
    solc.compile(JSON.stringify({ language: "Solidity", sources, settings }), {
      import: (unit: string) => {
        const path = resolveSource(unit);
        if (path) return { contents: readFileSync(path, "utf8") };
        missing.add(unit);
        return { error: `not vendored: ${unit}` };
      },
    }),
  ) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === "error");
  if (errors.length > 0) {
    const head = missing.size > 0 ? `missing sources:\n${[...missing].sort().join("\n")}\n` : "";
    throw new Error(`ENSv2 solc failed:\n${head}${errors.map((e) => e.formattedMessage).join("\n")}`);
  }

  const result: Record<string, Ensv2Artifact> = {};
  for (const [name, unit] of Object.entries(ENSV2_ENTRY_POINTS)) {
    const contract = output.contracts[unit]?.[name];
    if (!contract?.evm.bytecode.object) throw new Error(`ENSv2 build has no bytecode for ${unit}:${name}`);
    if (contract.evm.bytecode.object.includes("__$")) throw new Error(`${name} needs linked libraries`);
    result[name] = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  }
  mkdirSync(join(cacheDir, "solc-ensv2"), { recursive: true });
  writeFileSync(cachePath, JSON.stringify(result));
  return result;
}
