import type { Chain } from "../chain";
import { loadDevnetContracts } from "../contracts";
import type { ChainDeployment, Deployed } from "./types";

export type OptimismContract = "ThreeDNSToken" | "ThreeDNSResolver" | "L2ReverseRegistrar";

/** The Optimism chain (rehearsal only): 3DNS's token and resolver, and the L2 reverse registrar, as on OP Mainnet. */
export async function deployOptimism(chain: Chain): Promise<ChainDeployment<OptimismContract>> {
  const { own } = loadDevnetContracts();
  const c = {} as Record<OptimismContract, Deployed>;
  const firstBlock = (await chain.blockNumber()) + 1;
  c.ThreeDNSToken = await chain.deploy("ThreeDNSToken", own.ThreeDNSToken);
  c.ThreeDNSResolver = await chain.deploy("ThreeDNSResolver", own.ThreeDNSResolver, [c.ThreeDNSToken.address]);
  c.L2ReverseRegistrar = await chain.deploy("L2ReverseRegistrar", own.StandaloneReverseRegistrar);
  return { chain, contracts: c, firstBlock };
}
