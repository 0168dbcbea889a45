import * as resolver from "../../../lib/ens-handlers/resolver";
import { isIndexed, on } from "../../shared/register";

// The 3DNS resolver on each chain that has one.
for (const C of ["threedns/threednsOptimism/Resolver", "threedns/threednsBase/Resolver"]) {
  if (!isIndexed(C)) continue;
  on(`${C}:AddrChanged`, resolver.addrChanged);
  on(`${C}:AddressChanged`, resolver.addressChanged);
  on(`${C}:NameChanged`, resolver.nameChanged);
  on(`${C}:ABIChanged`, resolver.abiChanged);
  on(`${C}:PubkeyChanged`, resolver.pubkeyChanged);
  on(`${C}:TextChanged(bytes32 indexed node, string indexed indexedKey, string key)`, resolver.textChanged);
  on(`${C}:TextChanged(bytes32 indexed node, string indexed indexedKey, string key, string value)`, resolver.textChanged);
  on(`${C}:ContenthashChanged`, resolver.contenthashChanged);
  on(`${C}:InterfaceChanged`, resolver.interfaceChanged);
  on(`${C}:AuthorisationChanged`, resolver.authorisationChanged);
  on(`${C}:VersionChanged`, resolver.versionChanged);
}
