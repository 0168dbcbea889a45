import { makeRegistrarHandlers } from "../../shared/ens-handlers/registrar";
import { isIndexed, on } from "../../shared/register";

export function register(): void {
  const C = "subgraph/BaseRegistrar";
  if (isIndexed(C)) {
    const registrar = makeRegistrarHandlers({ managedName: "eth" });
    on(`${C}:NameRegistered`, registrar.nameRegistered);
    on(`${C}:NameRenewed`, registrar.nameRenewed);
    on(`${C}:Transfer`, registrar.nameTransferred);
  }
}
