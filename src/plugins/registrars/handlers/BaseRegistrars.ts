import type { DatasourceName } from "../../../namespaces/types";
import { nameRegistered, nameRenewed } from "../lib/actions";
import { isIndexed, on } from "../lib/register";
import { subregistryOf } from "../lib/subregistries";

export function register(): void {
  // The base registrars of .eth (ENS root chain), base.eth and linea.eth: each registration and renewal starts an action.
  for (const datasource of ["ensroot", "basenames", "lineanames"] satisfies DatasourceName[]) {
    const C = `registrars/${datasource}/BaseRegistrar`;
    if (!isIndexed(C)) continue;
    const sub = subregistryOf(datasource);
    type Args = { id: bigint; expires: bigint };
    on<Args>(`${C}:NameRegistered`, (context, event) => nameRegistered(context, sub, event));
    on<Args>(`${C}:NameRenewed`, (context, event) => nameRenewed(context, sub, event));
    // Basenames' registrar announces a registration with its resolver and TTL under another event name.
    if (datasource === "basenames") {
      on<Args>(`${C}:NameRegisteredWithRecord`, (context, event) => nameRegistered(context, sub, event));
    }
  }
}
