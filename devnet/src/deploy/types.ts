import type { Address } from "viem";
import type { Chain } from "../chain";

export interface Deployed {
  address: Address;
  /** Block of the deploy transaction: the contract's startBlock in the manifest. */
  block: number;
}

export interface ChainDeployment<K extends string> {
  chain: Chain;
  contracts: Record<K, Deployed>;
  /** Block of the first transaction on this chain: the start block of address-less resolver datasources. */
  firstBlock: number;
}
