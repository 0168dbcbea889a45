import { isIndexed, on } from "../../shared/register";
import * as registry from "../lib/registry";

export function register(): void {
  // Every registry's node→resolver links: ENS (the registry with fallback and the old registry), Basenames, Lineanames.
  for (const C of (["ensroot/Registry", "ensroot/RegistryOld", "basenames/Registry", "lineanames/Registry"] as const)
    .map((c) => `protocol-acceleration/${c}` as const)
    .filter(isIndexed)) {
    on(`${C}:NewOwner`, registry.newOwner);
    on(`${C}:Transfer`, registry.transfer);
    on(`${C}:NewResolver`, registry.newResolver);
  }
}
