import { makeRegistryHandlers, setupRootDomain } from "../../../lib/ens-handlers/registry";
import { prefetchFirstRootLabels, warmUpHealing } from "../../../lib/healing";
import { isIndexed, on, onSetup } from "../../shared/register";

// The registry with fallback: a node it writes is migrated, and the old registry's events stop counting for it.
const C = "subgraph/Registry";
if (isIndexed(C)) {
  warmUpHealing();
  prefetchFirstRootLabels();
  const registry = makeRegistryHandlers({ registry: "new" });
  onSetup(C, setupRootDomain);
  on(`${C}:NewOwner`, registry.newOwner);
  on(`${C}:Transfer`, registry.transfer);
  on(`${C}:NewResolver`, registry.newResolver);
  on(`${C}:NewTTL`, registry.newTTL);
}
