import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { buildConfig, ConfigError } from "../../src/config";

const addr = (n: number) => `0x${n.toString(16).padStart(40, "0")}`;

/** A devnet manifest as `npm run devnet` writes it, with only the datasources asked for. */
export function writeManifest(
  datasources: Record<string, { chainId: number; contracts: Record<string, { address?: string; startBlock: number }> }>,
): string {
  const dir = mkdtempSync(join(tmpdir(), "nameindex-config-"));
  const path = join(dir, "manifest.json");
  const manifest = {
    version: 1,
    createdAt: "2026-11-21T00:00:00Z",
    seed: 1,
    chains: {
      "31337": { name: "devnetRoot", rpcUrl: "http://127.0.0.1:40001" },
      "31338": { name: "devnetBase", rpcUrl: "http://127.0.0.1:40002" },
      "31339": { name: "devnetLinea", rpcUrl: "http://127.0.0.1:40003" },
    },
    datasources,
    scenario: {},
  };
  writeFileSync(path, JSON.stringify(manifest));
  return path;
}

export const ensrootOnly = {
  ensroot: {
    chainId: 31337,
    contracts: {
      RegistryOld: { address: addr(1), startBlock: 1 },
      Registry: { address: addr(2), startBlock: 2 },
      Resolver: { startBlock: 1 },
      BaseRegistrar: { address: addr(3), startBlock: 3 },
      LegacyEthRegistrarController: { address: addr(4), startBlock: 4 },
      NameWrapper: { address: addr(5), startBlock: 5 },
    },
  },
};

export const fullDevnet = {
  ...ensrootOnly,
  basenames: {
    chainId: 31338,
    contracts: {
      Registry: { address: addr(11), startBlock: 1 },
      Resolver: { startBlock: 1 },
      BaseRegistrar: { address: addr(12), startBlock: 2 },
      RegistrarController: { address: addr(13), startBlock: 3 },
    },
  },
  lineanames: {
    chainId: 31339,
    contracts: {
      Registry: { address: addr(21), startBlock: 1 },
      Resolver: { startBlock: 1 },
      BaseRegistrar: { address: addr(22), startBlock: 2 },
      EthRegistrarController: { address: addr(23), startBlock: 3 },
      NameWrapper: { address: addr(24), startBlock: 4 },
    },
  },
  threednsBase: {
    chainId: 31338,
    contracts: {
      ThreeDNSToken: { address: addr(31), startBlock: 5 },
      ThreeDNSResolver: { address: addr(32), startBlock: 5 },
    },
  },
};

/** The problems buildConfig reports for `env`; fails the test when it accepts it. */
export function problemsOf(env: Record<string, string>): string[] {
  try {
    buildConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error("expected the configuration to be rejected");
}
