import { join } from "node:path";
import { writeManifest } from "../../devnet/src/manifest";
import type { DevnetShape } from "../../devnet/src/shape";
import { type DevnetWithLabels, startDevnetWithLabels } from "../devnet-fixture";
import { type Prehistory, startPrehistory } from "./prehistory";
import { loadReferenceNamespace, type ReferenceNamespace, type ReferenceNamespaceName } from "./reference-datasources";
import { BLOCK_TIME_SECONDS, restrictToReference, shapeOf, unplaced } from "./shape";

export interface RehearsalChains {
  network: ReferenceNamespaceName;
  reference: ReferenceNamespace;
  shape: DevnetShape;
  env: DevnetWithLabels;
  /** The devnet manifest restricted to the reference's datasources: what the devnet-mode run indexes. */
  devnetManifestPath: string;
  /** Per chain id: the chain as a public node would serve it (empty history below genesis, then anvil). */
  nodes: Map<number, Prehistory>;
  /** Last block of the scenario (with its padding) per chain id. */
  endBlocks: Record<string, number>;
  stop(): Promise<void>;
}

/**
 * Mainnet- (or sepolia-) shaped chains: real chain ids, the reference's addresses and start blocks, the devnet's
 * scenario played on them, a label service, and each chain's history below its genesis served as empty blocks.
 */
export async function startRehearsalChains(options: {
  network: ReferenceNamespaceName;
  seed: number;
  names: number;
  log?: (line: string) => void;
}): Promise<RehearsalChains> {
  const log = options.log ?? (() => {});
  const reference = await loadReferenceNamespace(options.network, log);
  const shape = shapeOf(options.network, reference);
  const env = await startDevnetWithLabels({ seed: options.seed, names: options.names, shape });
  const nodes = new Map<number, Prehistory>();
  try {
    const roles = ["root", "base", "linea", "optimism", "arbitrum", "scroll"] as const;
    for (const role of roles) {
      const chain = shape[role];
      if (!chain) continue;
      const upstream = env.devnet.manifest.chains[String(chain.chainId)]!.rpcUrl;
      nodes.set(
        chain.chainId,
        await startPrehistory({ upstream, chainId: chain.chainId, blockTimeSeconds: BLOCK_TIME_SECONDS[role] }),
      );
    }
    const restricted = restrictToReference(env.devnet.manifest, reference);
    const placed = unplaced(shape, restricted);
    if (placed.missing.length > 0)
      throw new Error(`reference contracts the devnet did not deploy at their address: ${placed.missing.join(", ")}`);
    log(`${placed.count} contracts at the reference's addresses`);
    const devnetManifestPath = join(env.devnet.manifestPath, "..", "manifest-restricted.json");
    writeManifest(devnetManifestPath, restricted);
    const endBlocks = (env.devnet.manifest.scenario as { blocks: Record<string, number> }).blocks;
    return {
      network: options.network,
      reference,
      shape,
      env,
      devnetManifestPath,
      nodes,
      endBlocks,
      async stop() {
        for (const node of nodes.values()) await node.close();
        await env.stop();
      },
    };
  } catch (error) {
    for (const node of nodes.values()) await node.close();
    await env.stop();
    throw error;
  }
}
