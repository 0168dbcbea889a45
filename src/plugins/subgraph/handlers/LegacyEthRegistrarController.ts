import { makeRegistrarHandlers } from "../../shared/ens-handlers/registrar";
import { isIndexed, on } from "../../shared/register";

export function register(): void {
  // The first .eth controller: one `cost` for registrations and renewals.
  const C = "subgraph/LegacyEthRegistrarController";
  if (isIndexed(C)) {
    const registrar = makeRegistrarHandlers({ managedName: "eth" });
    on(`${C}:NameRegistered`, (context, event) =>
      registrar.controllerNameRegistered(context, {
        ...event,
        args: { label: event.args.name, labelhash: event.args.label, cost: event.args.cost },
      }),
    );
    on(`${C}:NameRenewed`, (context, event) =>
      registrar.controllerNameRenewed(context, {
        ...event,
        args: { label: event.args.name, labelhash: event.args.label, cost: event.args.cost },
      }),
    );
  }
}
