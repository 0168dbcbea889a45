import type { Address } from "viem";
import { type DevnetManifest, readDevnetManifest } from "./devnet-manifest";
import type { Datasource, DatasourceName, Namespace } from "./types";

const DEVNET_MANAGED_NAMES: Partial<Record<DatasourceName, string>> = {
  ensroot: "eth",
  basenames: "base.eth",
  lineanames: "linea.eth",
};

/** The devnet has the same shape as a public network; only its addresses come from the manifest the devnet tool wrote. */
export function devnetNamespace(manifestPath: string): Namespace {
  const manifest = readDevnetManifest(manifestPath);
  const datasources: Partial<Record<DatasourceName, Datasource>> = {};
  for (const [name, source] of Object.entries(manifest.datasources)) {
    const chain = manifest.chains[String(source.chainId)];
    if (!chain) {
      throw new Error(
        `Devnet manifest ${manifestPath}: datasource "${name}" is on chain ${source.chainId}, which the manifest's "chains" lacks`,
      );
    }
    const contracts = Object.fromEntries(
      Object.entries(source.contracts).map(([contract, ref]) => [
        contract,
        { address: ref.address as Address | undefined, startBlock: ref.startBlock },
      ]),
    );
    const managedName = source.managedName ?? DEVNET_MANAGED_NAMES[name as DatasourceName];
    datasources[name as DatasourceName] = {
      chain: { id: source.chainId, name: chain.name },
      ...(managedName ? { managedName } : {}),
      contracts,
    };
  }
  if (manifest.ensv2) datasources.ensv2 = ensv2Datasource(manifestPath, manifest);
  const defaultRpcUrls = Object.fromEntries(
    Object.entries(manifest.chains).map(([chainId, chain]) => [Number(chainId), chain.rpcUrl]),
  );
  return { name: "devnet", datasources, defaultRpcUrls };
}

/**
 * The manifest's ENSv2 contracts, plus `Registry`: every ENSv2 registry, matched by ABI at any address from the first
 * ENSv2 contract's block (registries below the root are deployed as names get subnames; docs/ensv2.md).
 */
function ensv2Datasource(manifestPath: string, manifest: DevnetManifest): Datasource {
  const ensv2 = manifest.ensv2!;
  const chain = manifest.chains[String(ensv2.chainId)];
  if (!chain) {
    throw new Error(
      `Devnet manifest ${manifestPath}: "ensv2" is on chain ${ensv2.chainId}, which the manifest's "chains" lacks`,
    );
  }
  const refs = Object.entries(ensv2.contracts).map(
    ([name, ref]) => [name, { address: ref.address as Address | undefined, startBlock: ref.startBlock }] as const,
  );
  const firstBlock = Math.min(...refs.map(([, ref]) => ref.startBlock));
  return {
    chain: { id: ensv2.chainId, name: chain.name },
    managedName: "eth",
    contracts: { ...Object.fromEntries(refs), Registry: { startBlock: firstBlock } },
  };
}
