import { makeRegistrarHandlers } from "../../shared/ens-handlers/registrar";
import { managedNameOf } from "../../shared/l2-registry";
import { isIndexed, on } from "../../shared/register";

export function register(): void {
  // Basenames' early-access, regular and upgradeable controllers: plaintext labels, no published price.
  for (const C of [
    "basenames/EARegistrarController",
    "basenames/RegistrarController",
    "basenames/UpgradeableRegistrarController",
  ] as const) {
    if (!isIndexed(C)) continue;
    const registrar = makeRegistrarHandlers({ managedName: managedNameOf("basenames") });
    on(`${C}:NameRegistered`, (context, event) =>
      registrar.controllerNameRegistered(context, {
        ...event,
        args: { label: event.args.name, labelhash: event.args.label },
      }),
    );
    on(`${C}:NameRenewed`, (context, event) =>
      registrar.controllerNameRenewed(context, {
        ...event,
        args: { label: event.args.name, labelhash: event.args.label },
      }),
    );
  }
}
