import { makeRegistrarHandlers } from "../../shared/ens-handlers/registrar";
import { managedNameOf } from "../../shared/l2-registry";
import { isIndexed, on } from "../../shared/register";

export function register(): void {
  const C = "lineanames/BaseRegistrar";
  if (isIndexed(C)) {
    const registrar = makeRegistrarHandlers({ managedName: managedNameOf("lineanames"), supportsPremintedNames: true });
    on(`${C}:NameRegistered`, registrar.nameRegistered);
    on(`${C}:NameRenewed`, registrar.nameRenewed);
    on(`${C}:Transfer`, registrar.nameTransferred);
  }
}
