import { makeRegistrarHandlers } from "../../shared/ens-handlers/registrar";
import { isIndexed, on } from "../../shared/register";

export function register(): void {
  // The 2023 controller (registers through the NameWrapper): cost = baseCost + premium; renewals as the legacy one.
  const C = "subgraph/WrappedEthRegistrarController";
  if (isIndexed(C)) {
    const registrar = makeRegistrarHandlers({ managedName: "eth" });
    on(`${C}:NameRegistered`, (context, event) =>
      registrar.controllerNameRegistered(context, {
        ...event,
        args: { label: event.args.name, labelhash: event.args.label, cost: event.args.baseCost + event.args.premium },
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
