import { makeRegistrarHandlers } from "../../shared/ens-handlers/registrar";
import { managedNameOf } from "../../shared/l2-registry";
import { isIndexed, on } from "../../shared/register";

export function register(): void {
  // Lineanames' controller: priced registrations (cost = baseCost + premium), owner and proof-of-humanity
  // registrations (no price), priced renewals.
  const C = "lineanames/EthRegistrarController";
  if (isIndexed(C)) {
    const registrar = makeRegistrarHandlers({ managedName: managedNameOf("lineanames") });
    on(`${C}:NameRegistered`, (context, event) =>
      registrar.controllerNameRegistered(context, {
        ...event,
        args: { label: event.args.name, labelhash: event.args.label, cost: event.args.baseCost + event.args.premium },
      }),
    );
    for (const unpriced of ["OwnerNameRegistered", "PohNameRegistered"] as const) {
      on(`${C}:${unpriced}`, (context, event) =>
        registrar.controllerNameRegistered(context, {
          ...event,
          args: { label: event.args.name, labelhash: event.args.label },
        }),
      );
    }
    on(`${C}:NameRenewed`, (context, event) =>
      registrar.controllerNameRenewed(context, {
        ...event,
        args: { label: event.args.name, labelhash: event.args.label, cost: event.args.cost },
      }),
    );
  }
}
