import type { Address, Hex } from "viem";
import type { IndexedEvent, IndexingContext } from "../../../lib/ens-handlers/context";
import { makeRegistrarHandlers } from "../../../lib/ens-handlers/registrar";
import { isIndexed, on } from "../../shared/register";
import { managedNameOf } from "../../basenames/handlers/l2-registry";

export function register(): void {
  // Lineanames' controller: priced registrations (cost = baseCost + premium), owner and proof-of-humanity
  // registrations (no price), priced renewals.
  const C = "lineanames/EthRegistrarController";
  if (isIndexed(C)) {
    const registrar = makeRegistrarHandlers({ managedName: managedNameOf("lineanames") });
    type Priced = { name: string; label: Hex; owner: Address; baseCost: bigint; premium: bigint; expires: bigint };
    type Free = { name: string; label: Hex; owner: Address; expires: bigint };
    type Renewed = { name: string; label: Hex; cost: bigint; expires: bigint };
    on(`${C}:NameRegistered`, (context: IndexingContext, event: IndexedEvent<Priced>) =>
      registrar.controllerNameRegistered(context, {
        ...event,
        args: { label: event.args.name, labelhash: event.args.label, cost: event.args.baseCost + event.args.premium },
      }),
    );
    const free = (context: IndexingContext, event: IndexedEvent<Free>) =>
      registrar.controllerNameRegistered(context, { ...event, args: { label: event.args.name, labelhash: event.args.label } });
    on(`${C}:OwnerNameRegistered`, free);
    on(`${C}:PohNameRegistered`, free);
    on(`${C}:NameRenewed`, (context: IndexingContext, event: IndexedEvent<Renewed>) =>
      registrar.controllerNameRenewed(context, {
        ...event,
        args: { label: event.args.name, labelhash: event.args.label, cost: event.args.cost },
      }),
    );
  }
}
