import type { Address } from "viem";
import { getConfig } from "../../../config";
import { isIndexed, on } from "../../shared/register";
import * as registry from "../lib/registry";

export function register(): void {
  // 3DNS registrations and the token's registry events are the node→resolver links of 3DNS names: each points at its
  // datasource's 3DNS resolver.
  for (const ds of ["threednsOptimism", "threednsBase"] as const) {
    const C = `protocol-acceleration/${ds}/Token` as const;
    const resolver = getConfig().namespace.datasources[ds]?.contracts.ThreeDNSResolver?.address;
    if (!isIndexed(C) || !resolver) continue;
    on(`${C}:RegistrationCreated`, registry.threednsRegistered(resolver as Address));
    on(`${C}:RegistrationBurned`, registry.threednsBurned);
    on(`${C}:NewOwner`, registry.threednsNewOwner(resolver as Address));
    on(`${C}:Transfer`, registry.transfer);
  }
}
