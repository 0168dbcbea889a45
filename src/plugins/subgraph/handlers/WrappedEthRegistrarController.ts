import type { Address, Hex } from "viem";
import type { IndexedEvent, IndexingContext } from "../../../lib/ens-handlers/context";
import { makeRegistrarHandlers } from "../../../lib/ens-handlers/registrar";
import { isIndexed, on } from "../../shared/register";

export function register(): void {
  // The 2023 controller (registers through the NameWrapper): cost = baseCost + premium; renewals as the legacy one.
  const C = "subgraph/WrappedEthRegistrarController";
  if (isIndexed(C)) {
    const registrar = makeRegistrarHandlers({ managedName: "eth" });
    type Registered = { name: string; label: Hex; owner: Address; baseCost: bigint; premium: bigint; expires: bigint };
    type Renewed = { name: string; label: Hex; cost: bigint; expires: bigint };
    on(`${C}:NameRegistered`, (context: IndexingContext, event: IndexedEvent<Registered>) =>
      registrar.controllerNameRegistered(context, {
        ...event,
        args: { label: event.args.name, labelhash: event.args.label, cost: event.args.baseCost + event.args.premium },
      }),
    );
    on(`${C}:NameRenewed`, (context: IndexingContext, event: IndexedEvent<Renewed>) =>
      registrar.controllerNameRenewed(context, {
        ...event,
        args: { label: event.args.name, labelhash: event.args.label, cost: event.args.cost },
      }),
    );
  }
}
