import { makeRegistrarHandlers } from "../../shared/ens-handlers/registrar";
import { isIndexed, on } from "../../shared/register";
import { managedNameOf } from "../../shared/l2-registry";

export function register(): void {
  const C = "lineanames/BaseRegistrar";
  if (isIndexed(C)) {
    const registrar = makeRegistrarHandlers({ managedName: managedNameOf("lineanames"), supportsPremintedNames: true });
    on(`${C}:NameRegistered`, registrar.nameRegistered);
    on(`${C}:NameRenewed`, registrar.nameRenewed);
    on(`${C}:Transfer`, registrar.nameTransferred);
  }
}
