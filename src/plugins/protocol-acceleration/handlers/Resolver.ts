import { getConfig } from "../../../config";
import type { DatasourceName } from "../../../namespaces/types";
import { isIndexed, on } from "../../shared/register";
import { deriveRecordKeys } from "../lib/record-key-derivations";
import * as recordKinds from "../lib/record-kinds";
import * as resolver from "../lib/resolver";

export function register(): void {
  // How the handlers below derive their keyed-record rows from events (the row cache's prefetch).
  deriveRecordKeys();
  const THREEDNS = ["threednsOptimism", "threednsBase"] as const;
  const chainOf = (ds: DatasourceName) => getConfig().namespace.datasources[ds]?.chain.id;
  const datasourceOf = (contract: string) => contract.split("/")[1] as DatasourceName;

  // Resolvers at any address on each registry's chain, and the 3DNS resolvers on other chains (one on a chain whose
  // resolvers are matched at any address is left out of the composed config: see plugin.ts).
  const contracts = (["ensroot", "basenames", "lineanames", "threednsOptimism", "threednsBase"] as const)
    .map((ds) => `protocol-acceleration/${ds}/Resolver` as const)
    .filter(isIndexed);

  // Only 3DNS resolvers answer text() from DNS TXT records; ens-contracts' DNSResolver keeps them apart (its
  // TTL-less DNSRecordChanged is not indexed: it changes nothing the API answers).
  const threednsResolvers = new Set(
    THREEDNS.map((ds) =>
      getConfig().namespace.datasources[ds]?.contracts.ThreeDNSResolver?.address?.toLowerCase(),
    ).filter((a): a is string => !!a),
  );
  const dnsRecordChanged = resolver.dnsRecordChanged(threednsResolvers);
  const dnsChains = new Set<number | undefined>(THREEDNS.map(chainOf).filter((id) => id !== undefined));

  for (const C of contracts) {
    on(`${C}:AddrChanged`, resolver.addrChanged);
    on(`${C}:AddressChanged`, resolver.addressChanged);
    on(`${C}:NameChanged`, resolver.nameChanged);
    on(`${C}:ABIChanged`, recordKinds.abiChanged);
    on(`${C}:PubkeyChanged`, resolver.pubkeyChanged);
    on(
      `${C}:TextChanged(bytes32 indexed node, string indexed indexedKey, string key)`,
      recordKinds.valuelessTextChanged,
    );
    on(
      `${C}:TextChanged(bytes32 indexed node, string indexed indexedKey, string key, string value)`,
      resolver.textChanged,
    );
    on(`${C}:ContenthashChanged`, resolver.contenthashChanged);
    on(`${C}:InterfaceChanged`, resolver.interfaceChanged);
    on(`${C}:VersionChanged`, resolver.versionChanged);
    on(`${C}:DNSZonehashChanged`, recordKinds.dnsZonehashChanged);
    if (C === "protocol-acceleration/ensroot/Resolver") on(`${C}:AliasChanged`, resolver.aliasChanged);
    if (threednsResolvers.size > 0 && dnsChains.has(chainOf(datasourceOf(C)))) {
      on(
        `${C}:DNSRecordChanged(bytes32 indexed node, bytes name, uint16 resource, uint32 ttl, bytes record)`,
        dnsRecordChanged,
      );
      on(`${C}:DNSRecordDeleted`, dnsRecordChanged);
    }
  }
}
