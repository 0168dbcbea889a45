import { makeRegistryHandlers, setupRootDomain } from "../../../lib/ens-handlers/registry";
import { prefetchFirstLabels, warmUpHealing } from "../../../lib/healing";
import { isIndexed, on, onSetup } from "../../shared/register";

// The registry with fallback: a node it writes is migrated, and the old registry's events stop counting for it.
const C = "subgraph/Registry";
if (isIndexed(C)) {
  warmUpHealing();
  prefetchFirstLabels("ensroot");
  const registry = makeRegistryHandlers({ registry: "new" });
  onSetup(C, setupRootDomain);
  on(`${C}:NewOwner`, registry.newOwner);
  on(`${C}:Transfer`, registry.transfer);
  on(`${C}:NewResolver`, registry.newResolver);
  on(`${C}:NewTTL`, registry.newTTL);
}
