import { getConfig } from "../../../config";
import { coinTypeForChain, DEFAULT_EVM_COIN_TYPE } from "../../../lib/coin-types";
import { L2_REVERSE_DATASOURCES } from "../../../namespaces/types";
import { isIndexed, on } from "../../shared/register";
import { nameForAddrChanged } from "../lib/reverse-names";

export function register(): void {
  // Primary names of the standalone reverse registrars (ENSIP-19): the default one on the ENS root chain, one per L2.
  const DEFAULT = "protocol-acceleration/ensroot/DefaultReverseRegistrar";
  if (isIndexed(DEFAULT)) on(`${DEFAULT}:NameForAddrChanged`, nameForAddrChanged(DEFAULT_EVM_COIN_TYPE));

  const { datasources } = getConfig().namespace;
  const rootChainId = datasources.ensroot?.chain.id ?? 1;
  for (const ds of L2_REVERSE_DATASOURCES) {
    const C = `protocol-acceleration/${ds}/L2ReverseRegistrar` as const;
    const chainId = datasources[ds]?.chain.id;
    if (chainId !== undefined && isIndexed(C))
      on(`${C}:NameForAddrChanged`, nameForAddrChanged(coinTypeForChain(chainId, rootChainId)));
  }
}
