import type { Address, Hex } from "viem";
import type { IndexedEvent, IndexingContext } from "../../../lib/ens-handlers/context";
import { makeRegistrarHandlers } from "../../../lib/ens-handlers/registrar";
import { isIndexed, on } from "../../shared/register";
import { managedNameOf } from "./l2-registry";

export function register(): void {
  // Basenames' early-access, regular and upgradeable controllers: plaintext labels, no published price.
  for (const C of ["basenames/EARegistrarController", "basenames/RegistrarController", "basenames/UpgradeableRegistrarController"]) {
    if (!isIndexed(C)) continue;
    const registrar = makeRegistrarHandlers({ managedName: managedNameOf("basenames") });
    type Args = { name: string; label: Hex; owner?: Address; expires: bigint };
    const plaintext = ({ name, label }: Args) => ({ label: name, labelhash: label });
    on(`${C}:NameRegistered`, (context: IndexingContext, event: IndexedEvent<Args>) =>
      registrar.controllerNameRegistered(context, { ...event, args: plaintext(event.args) }),
    );
    on(`${C}:NameRenewed`, (context: IndexingContext, event: IndexedEvent<Args>) =>
      registrar.controllerNameRenewed(context, { ...event, args: plaintext(event.args) }),
    );
  }
}
