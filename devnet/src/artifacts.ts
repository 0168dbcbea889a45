import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Abi, Hex } from "viem";
import { npmPackOnce } from "./npm-pack";
import { cacheDir } from "./paths";

/** The real ENS contracts come from these published truffle builds (installing them as dependencies drags in truffle). */
export const ENS_PACKAGES = {
  ethregistrar: { name: "@ensdomains/ethregistrar", version: "2.0.5" },
  resolver: { name: "@ensdomains/resolver", version: "0.3.1" },
} as const;

export interface RealArtifact {
  contractName: string;
  abi: Abi;
  bytecode: Hex;
}

const artifactsDir = join(cacheDir, "ens-artifacts");

function packageDir(pkg: keyof typeof ENS_PACKAGES): string {
  const { name, version } = ENS_PACKAGES[pkg];
  return join(artifactsDir, `${name.replace("@", "").replace("/", "-")}-${version}`);
}

/** Fetches and unpacks both packages with `npm pack` unless already cached in .cache/ens-artifacts/. */
export function fetchEnsArtifacts(log: (line: string) => void = () => {}): void {
  for (const key of Object.keys(ENS_PACKAGES) as (keyof typeof ENS_PACKAGES)[]) {
    const { name, version } = ENS_PACKAGES[key];
    npmPackOnce(name, version, packageDir(key), "build/contracts", log);
  }
}

/** Loads one truffle artifact (abi + creation bytecode) from a fetched package. */
export function loadEnsArtifact(pkg: keyof typeof ENS_PACKAGES, contractName: string): RealArtifact {
  const path = join(packageDir(pkg), "build", "contracts", `${contractName}.json`);
  if (!existsSync(path)) {
    const known = existsSync(join(packageDir(pkg), "build", "contracts"))
      ? readdirSync(join(packageDir(pkg), "build", "contracts")).join(", ")
      : "package not fetched";
    throw new Error(`no artifact ${contractName} in ${ENS_PACKAGES[pkg].name} (${known})`);
  }
  const json = JSON.parse(readFileSync(path, "utf8")) as { abi: Abi; bytecode: Hex };
  if (!json.bytecode || json.bytecode === "0x" || json.bytecode.includes("__")) {
    throw new Error(`artifact ${contractName} has no deployable bytecode`);
  }
  return { contractName, abi: json.abi, bytecode: json.bytecode };
}

/** The real contracts the devnet deploys, by the role they play. */
export function loadRealEnsContracts() {
  fetchEnsArtifacts();
  return {
    ENSRegistry: loadEnsArtifact("ethregistrar", "ENSRegistry"),
    ENSRegistryWithFallback: loadEnsArtifact("ethregistrar", "ENSRegistryWithFallback"),
    BaseRegistrarImplementation: loadEnsArtifact("ethregistrar", "BaseRegistrarImplementation"),
    StablePriceOracle: loadEnsArtifact("ethregistrar", "StablePriceOracle"),
    DummyOracle: loadEnsArtifact("ethregistrar", "DummyOracle"),
    ETHRegistrarController: loadEnsArtifact("ethregistrar", "ETHRegistrarController"),
    /** resolver@0.3.1's PublicResolver (solc 0.7.4), wired to the registry with fallback. */
    PublicResolver: loadEnsArtifact("resolver", "PublicResolver"),
    /** ethregistrar@2.0.5's older PublicResolver (solc 0.5.16), wired to the old registry for pre-migration names. */
    LegacyPublicResolver: loadEnsArtifact("ethregistrar", "PublicResolver"),
    ReverseRegistrar: loadEnsArtifact("resolver", "ReverseRegistrar"),
  };
}
export type RealEnsContracts = ReturnType<typeof loadRealEnsContracts>;
