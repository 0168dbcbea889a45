import { addEnsContracts } from "@ensdomains/ensjs";
import { createPublicClient, http } from "viem";
import { mainnet } from "viem/chains";

/** An ensjs client whose subgraph is `url`: only the subgraph is asked; no RPC is reachable or needed. */
export function ensjsClient(url: string) {
  const chain = addEnsContracts(mainnet);
  return createPublicClient({
    chain: { ...(chain as object), subgraphs: { ens: { url } } } as typeof chain,
    transport: http("http://127.0.0.1:9"),
  });
}
