import { getConfig } from "../../../config";
import type { DatasourceName } from "../../../namespaces/types";
import * as resolver from "../lib/resolver";
import { isIndexed, on } from "../../registrars/lib/register";

const ANY_ADDRESS = ["ensroot", "basenames", "lineanames"] as const;
const THREEDNS = ["threednsOptimism", "threednsBase"] as const;
const chainOf = (ds: DatasourceName) => getConfig().namespace.datasources[ds]?.chain.id;

// Resolvers at any address on each registry's chain, and the 3DNS resolvers. A 3DNS resolver on a chain whose
// resolvers are already matched at any address (Base) would see every event twice: it is left to that match.
const anyAddressChains = new Set(ANY_ADDRESS.filter((ds) => isIndexed(`protocol-acceleration/${ds}/Resolver`)).map(chainOf));
const contracts = [
  ...ANY_ADDRESS.map((ds) => `protocol-acceleration/${ds}/Resolver`),
  ...THREEDNS.filter((ds) => !anyAddressChains.has(chainOf(ds))).map((ds) => `protocol-acceleration/${ds}/Resolver`),
].filter(isIndexed);

for (const C of contracts) {
  on(`${C}:AddrChanged`, resolver.addrChanged);
  on(`${C}:AddressChanged`, resolver.addressChanged);
  on(`${C}:NameChanged`, resolver.nameChanged);
  on(`${C}:ABIChanged`, resolver.abiChanged);
  on(`${C}:PubkeyChanged`, resolver.pubkeyChanged);
  on(`${C}:TextChanged(bytes32 indexed node, string indexed indexedKey, string key)`, resolver.textChanged);
  on(`${C}:TextChanged(bytes32 indexed node, string indexed indexedKey, string key, string value)`, resolver.textChanged);
  on(`${C}:ContenthashChanged`, resolver.contenthashChanged);
  on(`${C}:InterfaceChanged`, resolver.interfaceChanged);
  on(`${C}:VersionChanged`, resolver.versionChanged);
}
