import type { Address, Hex } from "viem";
import type { IndexedEvent, IndexingContext } from "../../../lib/ens-handlers/context";
import { makeRegistrarHandlers } from "../../../lib/ens-handlers/registrar";
import { isIndexed, on } from "../../shared/register";

export function register(): void {
  // The first .eth controller: one `cost` for registrations and renewals.
  const C = "subgraph/LegacyEthRegistrarController";
  if (isIndexed(C)) {
    const registrar = makeRegistrarHandlers({ managedName: "eth" });
    type Args = { name: string; label: Hex; owner?: Address; cost: bigint; expires: bigint };
    const plaintext = ({ name, label, cost }: Args) => ({ label: name, labelhash: label, cost });
    on(`${C}:NameRegistered`, (context: IndexingContext, event: IndexedEvent<Args>) =>
      registrar.controllerNameRegistered(context, { ...event, args: plaintext(event.args) }),
    );
    on(`${C}:NameRenewed`, (context: IndexingContext, event: IndexedEvent<Args>) =>
      registrar.controllerNameRenewed(context, { ...event, args: plaintext(event.args) }),
    );
  }
}
