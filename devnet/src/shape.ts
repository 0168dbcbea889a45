import type { Address } from "viem";

/** One chain of a devnet: its id, its Ponder chain key, where its block numbers start, and fixed contract addresses. */
export interface ChainShape {
  chainId: number;
  /** Ponder chain key written into the manifest (devnetRoot, mainnet, base, …). */
  name: string;
  /** Number of the genesis block (anvil's --number): a public network's contracts start millions of blocks in. */
  genesisNumber?: number;
  /**
   * Contracts to deploy at a fixed address instead of the deployer's next CREATE address, by the name the deploy
   * step gives them (Registry, BaseRegistrar, ThreeDNSToken, …).
   */
  placements?: Record<string, Address>;
  /**
   * The label under `eth` whose subnames the chain's registrar manages, where the network differs from the
   * devnet's `base`/`linea` (Sepolia: `basetest`, `linea-sepolia`).
   */
  managedLabel?: string;
  /**
   * Which of our two `.eth` registrar builds the root chain deploys as ENSv2's `ETHRegistrar`: contracts-v2's source
   * (`ETHRegistrar`, the default: referrer in the data) or the later one deployed for sepolia-v2
   * (`ETHRegistrarIndexedReferrer`: referrer indexed). Same functions, other layouts of `NameRegistered`/`NameRenewed`.
   */
  ensv2Registrar?: Ensv2RegistrarBuild;
}

export type Ensv2RegistrarBuild = "ETHRegistrar" | "ETHRegistrarIndexedReferrer";

/**
 * Which chains a devnet runs. The default is the local devnet (31337–31339, no Optimism); the mainnet rehearsal
 * gives real chain ids, real addresses and genesis heights past the real start blocks, plus an Optimism chain.
 */
export interface DevnetShape {
  root: ChainShape;
  base: ChainShape;
  linea: ChainShape;
  /** A fourth chain with 3DNS and an L2 reverse registrar, as on OP Mainnet. */
  optimism?: ChainShape;
  /** Chains with only an L2 reverse registrar, as Arbitrum One and Scroll are for ENS primary names. */
  arbitrum?: ChainShape;
  scroll?: ChainShape;
  /**
   * Empty blocks mined after the scenario so it is final for Ponder (30 blocks on chains it does not know, 65 on
   * Ethereum and its testnets).
   */
  paddingBlocks: number;
}

export const LOCAL_DEVNET_SHAPE: DevnetShape = {
  root: { chainId: 31337, name: "devnetRoot" },
  base: { chainId: 31338, name: "devnetBase" },
  linea: { chainId: 31339, name: "devnetLinea" },
  paddingBlocks: 64,
};

/** The local devnet plus two reverse-only chains standing for Arbitrum (31340) and Scroll (31341). */
export const LOCAL_DEVNET_SHAPE_WITH_REVERSE_L2S: DevnetShape = {
  ...LOCAL_DEVNET_SHAPE,
  arbitrum: { chainId: 31340, name: "devnetArbitrum" },
  scroll: { chainId: 31341, name: "devnetScroll" },
};

/** The local devnet plus an Optimism chain (31342: 3DNS, an L2 reverse registrar) on which the cross-chain account names itself. */
export const LOCAL_DEVNET_SHAPE_WITH_OPTIMISM: DevnetShape = {
  ...LOCAL_DEVNET_SHAPE,
  optimism: { chainId: 31342, name: "devnetOptimism" },
};

/** Every chain of a shape, in the order the devnet starts them (root, base, linea, then the optional ones). */
export function chainsOfShape(shape: DevnetShape): ChainShape[] {
  return [shape.root, shape.base, shape.linea, shape.optimism, shape.arbitrum, shape.scroll].filter(
    (c): c is ChainShape => c !== undefined,
  );
}
