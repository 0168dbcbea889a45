import { makeRegistrarHandlers } from "../../shared/ens-handlers/registrar";
import { managedNameOf } from "../../shared/l2-registry";
import { isIndexed, on } from "../../shared/register";

export function register(): void {
  // Basenames' base registrar. Names preminted (`registerOnly`) before any controller existed have no NewOwner: the
  // registrar creates their domain, and the label service names them (healed at NameRegistered).
  // `NameRegisteredWithRecord` (registration that also set resolver and TTL in the registry) counts as NameRegistered.
  const C = "basenames/BaseRegistrar";
  if (isIndexed(C)) {
    const registrar = makeRegistrarHandlers({ managedName: managedNameOf("basenames"), supportsPremintedNames: true });
    on(`${C}:NameRegistered`, registrar.nameRegistered);
    on(`${C}:NameRegisteredWithRecord`, registrar.nameRegistered);
    on(`${C}:NameRenewed`, registrar.nameRenewed);
    on(`${C}:Transfer`, registrar.nameTransferred);
  }
}
