import type { Abi, AbiEvent, Address } from "viem";
import { type ChainShape, chainsOfShape, type DevnetShape, type Ensv2RegistrarBuild } from "../../devnet/src/shape";
import type { DevnetManifest } from "../../src/namespaces/devnet-manifest";
import type { DatasourceName } from "../../src/namespaces/types";
import type { ReferenceNamespace, ReferenceNamespaceName } from "./reference-datasources";

/** Which devnet chain plays which reference datasource's chain. */
const DEVNET_CHAIN_OF: Record<DatasourceName, keyof Omit<DevnetShape, "paddingBlocks">> = {
  ensroot: "root",
  basenames: "base",
  lineanames: "linea",
  threednsBase: "base",
  reverseBase: "base",
  reverseLinea: "linea",
  threednsOptimism: "optimism",
  reverseOptimism: "optimism",
  reverseArbitrum: "arbitrum",
  reverseScroll: "scroll",
  ensv2: "root",
};

/** Block times of the empty history below genesis (Ethereum's 12 s; the L2s' 2 s). */
export const BLOCK_TIME_SECONDS: Record<keyof Omit<DevnetShape, "paddingBlocks">, number> = {
  root: 12,
  base: 2,
  linea: 2,
  optimism: 2,
  // Arbitrum's blocks come every 0.25 s; whole seconds keep the prehistory's timestamps integral and in the past.
  arbitrum: 1,
  scroll: 3,
};

/**
 * The names the L2 registrars manage on each network: a fact of the deployments that the reference package does not
 * list (Basenames on Base Sepolia manages basetest.eth, Lineanames on Linea Sepolia linea-sepolia.eth). sepolia-v2
 * lists neither registrar: the devnet still plays them on its Base and Linea chains (which carry the L2 reverse
 * registrars), under sepolia's names, and neither run indexes them.
 */
const MANAGED_LABELS: Record<ReferenceNamespaceName, { base: string; linea: string }> = {
  mainnet: { base: "base", linea: "linea" },
  sepolia: { base: "basetest", linea: "linea-sepolia" },
  "sepolia-v2": { base: "basetest", linea: "linea-sepolia" },
};

/**
 * Ponder's finality is 65 blocks on Ethereum and its testnets and 240 on Arbitrum One; bury the scenario deeper than
 * that on every chain (a devnet-mode run reads the chains without the history below genesis, so its finalized block
 * must be past genesis).
 */
const PADDING_BLOCKS = 260;

/**
 * The devnet shape of a public network: each chain under its real id, its genesis past every start block the
 * reference lists for it (so every event happens at or after its contract's real start block), and every
 * reference contract with an address placed at that address.
 */
export function shapeOf(network: ReferenceNamespaceName, reference: ReferenceNamespace): DevnetShape {
  const chains: Partial<Record<keyof Omit<DevnetShape, "paddingBlocks">, ChainShape>> = {};
  for (const [ds, source] of Object.entries(reference) as [
    DatasourceName,
    NonNullable<ReferenceNamespace[DatasourceName]>,
  ][]) {
    const role = DEVNET_CHAIN_OF[ds];
    const chain = (chains[role] ??= {
      chainId: source.chainId,
      name: `chain${source.chainId}`,
      genesisNumber: 0,
      placements: {},
    });
    if (chain.chainId !== source.chainId)
      throw new Error(`${ds} is on chain ${source.chainId}, but the devnet's ${role} chain is ${chain.chainId}`);
    for (const [contract, ref] of Object.entries(source.contracts)) {
      chain.genesisNumber = Math.max(chain.genesisNumber!, ref.startBlock);
      if (!ref.address) continue;
      // Placements are keyed by the devnet's deploy names, one namespace per chain: ENSv1's and ENSv2's names on the
      // root chain must not collide (ENSv2's any-address Registry has no address, so it places nothing).
      const placed = chain.placements![contract];
      if (placed && placed !== ref.address)
        throw new Error(`chain ${source.chainId}: ${contract} is placed at ${placed} and at ${ref.address} (${ds})`);
      chain.placements![contract] = ref.address;
    }
  }
  for (const chain of Object.values(chains)) chain.genesisNumber = Math.ceil((chain.genesisNumber! + 1) / 1000) * 1000;
  const { root, base, linea, optimism, arbitrum, scroll } = chains;
  if (!root || !base || !linea)
    throw new Error("the reference namespace lacks the ENS root, Basenames or Lineanames chain");
  base.managedLabel = MANAGED_LABELS[network].base;
  linea.managedLabel = MANAGED_LABELS[network].linea;
  const registrar = reference.ensv2?.contracts.ETHRegistrar;
  if (registrar) root.ensv2Registrar = registrarBuildOf(registrar.abi);
  return {
    root,
    base,
    linea,
    ...(optimism ? { optimism } : {}),
    ...(arbitrum ? { arbitrum } : {}),
    ...(scroll ? { scroll } : {}),
    paddingBlocks: PADDING_BLOCKS,
  };
}

/**
 * Our registrar build whose events are laid out as the reference declares them: the one with the referrer indexed
 * where the reference's `NameRegistered` indexes it (sepolia-v2's deployment), else contracts-v2's source.
 */
export function registrarBuildOf(abi: Abi): Ensv2RegistrarBuild {
  const registered = abi.find((x): x is AbiEvent => x.type === "event" && x.name === "NameRegistered");
  return registered?.inputs.some((i) => i.name === "referrer" && i.indexed)
    ? "ETHRegistrarIndexedReferrer"
    : "ETHRegistrar";
}

/**
 * The devnet manifest restricted to what the reference namespace has: the devnet-mode run must index the same
 * datasources and contracts as `NAMESPACE=<network>` for the two indexes to be comparable.
 */
export function restrictToReference(manifest: DevnetManifest, reference: ReferenceNamespace): DevnetManifest {
  const datasources: DevnetManifest["datasources"] = {};
  for (const [ds, source] of Object.entries(manifest.datasources) as [
    DatasourceName,
    DevnetManifest["datasources"][DatasourceName],
  ][]) {
    const ref = reference[ds];
    if (!ref || !source) continue;
    const contracts = Object.fromEntries(
      Object.entries(source.contracts).filter(([contract]) => contract in ref.contracts),
    );
    datasources[ds] = { ...source, contracts };
  }
  const { ensv2, ...rest } = manifest;
  const ref = reference.ensv2;
  if (!ensv2 || !ref) return { ...rest, datasources };
  // ENSv2 is the manifest's own section, not a datasource: keep the reference's fixed contracts, and give `Registry`
  // (every registry by ABI) the devnet's first ENSv2 block, where devnet mode starts it with the whole section.
  const fixed = Object.entries(ensv2.contracts).filter(([contract]) => contract in ref.contracts);
  const firstBlock = Math.min(...Object.values(ensv2.contracts).map((c) => c.startBlock));
  return {
    ...rest,
    datasources,
    ensv2: { ...ensv2, contracts: { ...Object.fromEntries(fixed), Registry: { startBlock: firstBlock } } },
  };
}

/** Addresses of placed contracts, for a report: `<chainId>/<contract>` → address. */
export function placementsOf(shape: DevnetShape): Record<string, Address> {
  const out: Record<string, Address> = {};
  for (const chain of chainsOfShape(shape)) {
    for (const [contract, address] of Object.entries(chain.placements ?? {}))
      out[`${chain.chainId}/${contract}`] = address;
  }
  return out;
}

/**
 * Placements the devnet did not honour: a reference contract whose name no deploy step uses would be deployed
 * nowhere, and the rehearsal would compare two indexes that both lack it. Every placed `<chainId>/<contract>` must
 * be in the manifest (a datasource's or the ENSv2 section's contract of that name, on that chain) at that address.
 */
export function unplaced(shape: DevnetShape, manifest: DevnetManifest): { count: number; missing: string[] } {
  const listed = new Set<string>();
  const sections = [...Object.values(manifest.datasources), ...(manifest.ensv2 ? [manifest.ensv2] : [])];
  for (const section of sections) {
    for (const [contract, ref] of Object.entries(section?.contracts ?? {}))
      if (ref.address) listed.add(`${section!.chainId}/${contract}@${ref.address.toLowerCase()}`);
  }
  const placements = Object.entries(placementsOf(shape));
  const missing = placements
    .filter(([key, address]) => !listed.has(`${key}@${address.toLowerCase()}`))
    .map(([key, address]) => `${key} (${address})`);
  return { count: placements.length, missing };
}
