import type { Address } from "viem";
import { readDevnetManifest } from "./devnet-manifest";
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
  const defaultRpcUrls = Object.fromEntries(
    Object.entries(manifest.chains).map(([chainId, chain]) => [Number(chainId), chain.rpcUrl]),
  );
  return { name: "devnet", datasources, defaultRpcUrls };
}
