import { makeSubnode, namehash, tokenIdToHex32 } from "../../../lib/names";
import type { DatasourceName, Namespace } from "../../../namespaces/types";
import type { NameTokenContract } from "./seaport-sales";

// The registrars' ERC-721s: the token id is the labelhash of a direct subname of the managed name.
const ERC721_REGISTRARS: DatasourceName[] = ["ensroot", "basenames", "lineanames"];
// The ERC-1155s: the token id is the node.
const ERC1155_TOKENS: [DatasourceName, string][] = [
  ["ensroot", "NameWrapper"],
  ["lineanames", "NameWrapper"],
  ["threednsOptimism", "ThreeDNSToken"],
  ["threednsBase", "ThreeDNSToken"],
];

/** Every name token contract of the namespace on `chainId`, by lowercase address: what a marketplace there can sell. */
export function nameTokenContractsOn(namespace: Namespace, chainId: number): Map<string, NameTokenContract> {
  const out = new Map<string, NameTokenContract>();
  for (const ds of ERC721_REGISTRARS) {
    const source = namespace.datasources[ds];
    const address = source?.contracts.BaseRegistrar?.address;
    if (!source || source.chain.id !== chainId || !address || !source.managedName) continue;
    const parentNode = namehash(source.managedName);
    out.set(address.toLowerCase(), {
      assetNamespace: "erc721",
      domainIdOf: (id) => makeSubnode(parentNode, tokenIdToHex32(id)),
    });
  }
  for (const [ds, contract] of ERC1155_TOKENS) {
    const source = namespace.datasources[ds];
    const address = source?.contracts[contract]?.address;
    if (!source || source.chain.id !== chainId || !address) continue;
    out.set(address.toLowerCase(), { assetNamespace: "erc1155", domainIdOf: (id) => tokenIdToHex32(id) });
  }
  return out;
}
