import type { Address, Hex } from "viem";
import type { IndexedEvent, IndexingContext } from "../../../lib/ens-handlers/context";
import { makeRegistrarHandlers } from "../../../lib/ens-handlers/registrar";
import { isIndexed, on } from "../../shared/register";

export function register(): void {
  // The 2025 controller (unwrapped registrations with a referrer): cost = baseCost + premium.
  const C = "subgraph/UnwrappedEthRegistrarController";
  if (isIndexed(C)) {
    const registrar = makeRegistrarHandlers({ managedName: "eth" });
    type Registered = { label: string; labelhash: Hex; owner: Address; baseCost: bigint; premium: bigint; expires: bigint };
    type Renewed = { label: string; labelhash: Hex; cost: bigint; expires: bigint };
    on(`${C}:NameRegistered`, (context: IndexingContext, event: IndexedEvent<Registered>) =>
      registrar.controllerNameRegistered(context, {
        ...event,
        args: { label: event.args.label, labelhash: event.args.labelhash, cost: event.args.baseCost + event.args.premium },
      }),
    );
    on(`${C}:NameRenewed`, (context: IndexingContext, event: IndexedEvent<Renewed>) =>
      registrar.controllerNameRenewed(context, {
        ...event,
        args: { label: event.args.label, labelhash: event.args.labelhash, cost: event.args.cost },
      }),
    );
  }
}
