import { getConfig } from "../../../config";
import { makeSubnode, namehash, tokenIdToHex32 } from "../../../lib/names";
import type { DatasourceName } from "../../../namespaces/types";
import { isIndexed, on } from "../../shared/register";
import { tokenTransferred } from "../lib/tokens";

export function register(): void {
  // ERC-721 of each base registrar: the token id is the labelhash of a direct subname of the managed name.
  for (const datasource of ["ensroot", "basenames", "lineanames"] as const satisfies DatasourceName[]) {
    const C = `tokenscope/${datasource}/BaseRegistrar` as const;
    if (!isIndexed(C)) continue;
    const managedName = getConfig().namespace.datasources[datasource]?.managedName;
    if (!managedName) throw new Error(`tokenscope: datasource "${datasource}" names no managed name in this namespace`);
    const parentNode = namehash(managedName);
    on(`${C}:Transfer`, (context, event) => {
      const tokenId = tokenIdToHex32(event.args.tokenId);
      return tokenTransferred(context, event, {
        assetNamespace: "erc721",
        tokenId,
        domainId: makeSubnode(parentNode, tokenId),
        to: event.args.to,
      });
    });
  }
}
