import { makeRegistryHandlers, setupRootDomain } from "../../shared/ens-handlers/registry";
import { isIndexed, on, onSetup } from "../../shared/register";

export function register(): void {
  // The pre-2020 registry: its events count only for nodes the new registry has not taken over.
  const C = "subgraph/RegistryOld";
  if (isIndexed(C)) {
    const registry = makeRegistryHandlers({ registry: "old" });
    onSetup(C, setupRootDomain);
    on(`${C}:NewOwner`, registry.newOwner);
    on(`${C}:Transfer`, registry.transfer);
    on(`${C}:NewResolver`, registry.newResolver);
    on(`${C}:NewTTL`, registry.newTTL);
  }
}
