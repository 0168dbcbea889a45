import { makeRegistryHandlers, setupRootDomain } from "../../shared/ens-handlers/registry";
import { isIndexed, on, onSetup } from "../../shared/register";

export function register(): void {
  // The registry with fallback: a node it writes is migrated, and the old registry's events stop counting for it.
  const C = "subgraph/Registry";
  if (isIndexed(C)) {
    const registry = makeRegistryHandlers({ registry: "new" });
    onSetup(C, setupRootDomain);
    on(`${C}:NewOwner`, registry.newOwner);
    on(`${C}:Transfer`, registry.transfer);
    on(`${C}:NewResolver`, registry.newResolver);
    on(`${C}:NewTTL`, registry.newTTL);
  }
}
