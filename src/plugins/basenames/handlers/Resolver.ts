import { getConfig } from "../../../config";
import type { IndexedEvent, IndexingContext } from "../../../lib/ens-handlers/context";
import * as resolver from "../../../lib/ens-handlers/resolver";
import { isIndexed, on } from "../../shared/register";

// Resolver events from any address on Base — except the 3DNS resolver's when the threedns plugin indexes it, so
// one log is not applied twice.
const C = "basenames/Resolver";
if (isIndexed(C)) {
  const threeDnsResolver = isIndexed("threedns/threednsBase/Resolver")
    ? getConfig().namespace.datasources.threednsBase?.contracts.ThreeDNSResolver?.address?.toLowerCase()
    : undefined;
  const notThreeDNS =
    <A>(handler: (context: IndexingContext, event: IndexedEvent<A>) => Promise<void>) =>
    (context: IndexingContext, event: IndexedEvent<A>): Promise<void> =>
      threeDnsResolver !== undefined && event.log.address.toLowerCase() === threeDnsResolver
        ? Promise.resolve()
        : handler(context, event);
  on(`${C}:AddrChanged`, notThreeDNS(resolver.addrChanged));
  on(`${C}:AddressChanged`, notThreeDNS(resolver.addressChanged));
  on(`${C}:NameChanged`, notThreeDNS(resolver.nameChanged));
  on(`${C}:ABIChanged`, notThreeDNS(resolver.abiChanged));
  on(`${C}:PubkeyChanged`, notThreeDNS(resolver.pubkeyChanged));
  on(`${C}:TextChanged(bytes32 indexed node, string indexed indexedKey, string key)`, notThreeDNS(resolver.textChanged));
  on(`${C}:TextChanged(bytes32 indexed node, string indexed indexedKey, string key, string value)`, notThreeDNS(resolver.textChanged));
  on(`${C}:ContenthashChanged`, notThreeDNS(resolver.contenthashChanged));
  on(`${C}:InterfaceChanged`, notThreeDNS(resolver.interfaceChanged));
  on(`${C}:AuthorisationChanged`, notThreeDNS(resolver.authorisationChanged));
  on(`${C}:VersionChanged`, notThreeDNS(resolver.versionChanged));
}
