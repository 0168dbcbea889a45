import * as resolver from "../lib/resolver";
import { isIndexed, on } from "../../registrars/lib/register";

// Resolvers at any address on each registry's chain, and the 3DNS resolvers on other chains (one on a chain whose
// resolvers are matched at any address is left out of the composed config: see plugin.ts).
const contracts = ["ensroot", "basenames", "lineanames", "threednsOptimism", "threednsBase"]
  .map((ds) => `protocol-acceleration/${ds}/Resolver`)
  .filter(isIndexed);

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
