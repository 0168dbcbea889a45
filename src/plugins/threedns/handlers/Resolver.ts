import * as resolver from "../../shared/ens-handlers/resolver";
import { isIndexed, on } from "../../shared/register";
import { onResolverEvents } from "../../shared/resolver-handlers";

export function register(): void {
  // The 3DNS resolver on each chain that has one, with its DNS records (TXT records at `<key>.ens` are texts).
  for (const C of ["threedns/threednsOptimism/Resolver", "threedns/threednsBase/Resolver"] as const) {
    onResolverEvents(C);
    if (!isIndexed(C)) continue;
    on(
      `${C}:DNSRecordChanged(bytes32 indexed node, bytes name, uint16 resource, uint32 ttl, bytes record)`,
      resolver.dnsTxtRecordChanged,
    );
    on(`${C}:DNSRecordDeleted`, resolver.dnsTxtRecordChanged);
  }
}
