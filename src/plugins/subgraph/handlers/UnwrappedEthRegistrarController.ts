import { makeRegistrarHandlers } from "../../shared/ens-handlers/registrar";
import { isIndexed, on } from "../../shared/register";

export function register(): void {
  // The 2025 controller (unwrapped registrations with a referrer): cost = baseCost + premium.
  const C = "subgraph/UnwrappedEthRegistrarController";
  if (isIndexed(C)) {
    const registrar = makeRegistrarHandlers({ managedName: "eth" });
    on(`${C}:NameRegistered`, (context, event) =>
      registrar.controllerNameRegistered(context, {
        ...event,
        args: {
          label: event.args.label,
          labelhash: event.args.labelhash,
          cost: event.args.baseCost + event.args.premium,
        },
      }),
    );
    on(`${C}:NameRenewed`, (context, event) =>
      registrar.controllerNameRenewed(context, {
        ...event,
        args: { label: event.args.label, labelhash: event.args.labelhash, cost: event.args.cost },
      }),
    );
  }
}
