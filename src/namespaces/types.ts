import type { Address } from "viem";

/**
 * The networks an operator can index. `devnet` reads its addresses from a manifest written by `npm run devnet`;
 * `sepolia-v2` (ENS's ENSv1 + ENSv2 test deployment on Sepolia) entirely from src/namespaces/datasources.json.
 */
export const NAMESPACE_NAMES = ["mainnet", "sepolia", "sepolia-v2", "devnet"] as const;
export type NamespaceName = (typeof NAMESPACE_NAMES)[number];

/**
 * A datasource is one registry deployment on one chain. Plugins ask for datasources by these names, so a plugin
 * never knows which network it runs on.
 */
export const DATASOURCE_NAMES = [
  "ensroot",
  "basenames",
  "lineanames",
  "threednsOptimism",
  "threednsBase",
  "reverseBase",
  "reverseLinea",
  "reverseOptimism",
  "reverseArbitrum",
  "reverseScroll",
  "ensv2",
] as const;
export type DatasourceName = (typeof DATASOURCE_NAMES)[number];

/** The datasources of ENSIP-19 L2 reverse registrars, one per L2 chain that has primary names. */
export const L2_REVERSE_DATASOURCES = [
  "reverseBase",
  "reverseLinea",
  "reverseOptimism",
  "reverseArbitrum",
  "reverseScroll",
] as const satisfies readonly DatasourceName[];

export interface ChainRef {
  id: number;
  /** Ponder's chain key, e.g. `mainnet`, `base`, `devnetRoot`. */
  name: string;
}

export interface ContractRef {
  /** Omitted for contracts matched at any address (resolvers). */
  address?: Address;
  startBlock: number;
}

export interface Datasource {
  chain: ChainRef;
  /** The name whose subnames this datasource's registrar manages (`eth`, `base.eth`, `linea.eth`), if it has one. */
  managedName?: string;
  contracts: Record<string, ContractRef>;
}

export interface Namespace {
  name: NamespaceName;
  datasources: Partial<Record<DatasourceName, Datasource>>;
  /** RPC URLs the namespace knows by itself (devnet: from its manifest); `RPC_URL_<chainId>` overrides them. */
  defaultRpcUrls: Record<number, string>;
}
