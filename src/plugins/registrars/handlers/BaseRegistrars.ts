import type { DatasourceName } from "../../../namespaces/types";
import { isIndexed, on } from "../../shared/register";
import { nameRegistered, nameRenewed } from "../lib/actions";
import { subregistryOf } from "../lib/subregistries";

export function register(): void {
  // The base registrars of .eth (ENS root chain), base.eth and linea.eth: each registration and renewal starts an action.
  for (const datasource of ["ensroot", "basenames", "lineanames"] as const satisfies DatasourceName[]) {
    const C = `registrars/${datasource}/BaseRegistrar` as const;
    if (!isIndexed(C)) continue;
    const sub = subregistryOf(datasource);
    on(`${C}:NameRegistered`, (context, event) => nameRegistered(context, sub, event));
    on(`${C}:NameRenewed`, (context, event) => nameRenewed(context, sub, event));
    // Basenames' registrar announces a registration with its resolver and TTL under another event name.
    if (datasource === "basenames") {
      on("registrars/basenames/BaseRegistrar:NameRegisteredWithRecord", (context, event) =>
        nameRegistered(context, sub, event),
      );
    }
  }
}
