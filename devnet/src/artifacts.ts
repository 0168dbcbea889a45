import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { writeFileSync } from "node:fs";
import type { Abi, Hex } from "viem";
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
  mkdirSync(artifactsDir, { recursive: true });
  for (const key of Object.keys(ENS_PACKAGES) as (keyof typeof ENS_PACKAGES)[]) {
    const dir = packageDir(key);
    if (existsSync(join(dir, "build", "contracts"))) continue;
    const { name, version } = ENS_PACKAGES[key];
    log(`fetching ${name}@${version} with npm pack`);
    const tmp = `${dir}.tmp`;
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    const out = execFileSync("npm", ["pack", `${name}@${version}`, "--pack-destination", tmp, "--json", "--silent"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    const [{ filename }] = JSON.parse(out) as { filename: string }[];
    extractTarGz(join(tmp, filename.replace(/^@/, "").replace("/", "-")), tmp);
    rmSync(dir, { recursive: true, force: true });
    renameSync(join(tmp, "package"), dir);
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** A minimal reader for npm's tarballs: ustar headers of 512 bytes, regular files only. */
function extractTarGz(file: string, dest: string): void {
  const tar = gunzipSync(readFileSync(file));
  let offset = 0;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const field = (start: number, len: number) => header.subarray(start, start + len).toString("utf8").replace(/\0.*$/s, "");
    const prefix = field(345, 155);
    const name = prefix ? `${prefix}/${field(0, 100)}` : field(0, 100);
    const size = parseInt(field(124, 12).trim() || "0", 8);
    const type = field(156, 1);
    const body = tar.subarray(offset + 512, offset + 512 + size);
    if ((type === "0" || type === "") && !name.includes("..")) {
      const target = join(dest, name);
      mkdirSync(join(target, ".."), { recursive: true });
      writeFileSync(target, body);
    }
    offset += 512 + Math.ceil(size / 512) * 512;
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
