import type { Address } from "viem";
import { getConfig } from "../../../config";
import { setupRootDomain } from "../../shared/ens-handlers/registry";
import { isIndexed, on, onSetup } from "../../shared/register";
import { makeThreeDNSHandlers } from "../lib/registrations";

export function register(): void {
  // The 3DNS token on each chain that has one; its registrations link to the same datasource's 3DNS resolver.
  for (const ds of ["threednsOptimism", "threednsBase"] as const) {
    const C = `threedns/${ds}/Token` as const;
    if (!isIndexed(C)) continue;
    const resolver = getConfig().namespace.datasources[ds]?.contracts.ThreeDNSResolver?.address as Address | undefined;
    const threedns = makeThreeDNSHandlers({ resolver });
    onSetup(C, setupRootDomain);
    on(`${C}:RegistrationCreated`, threedns.registrationCreated);
    on(`${C}:RegistrationExtended`, threedns.registrationExtended);
    on(`${C}:RegistrationTransferred`, threedns.registrationTransferred);
    on(`${C}:RegistrationBurned`, threedns.registrationBurned);
    on(`${C}:NewOwner`, threedns.newOwner);
    on(`${C}:Transfer`, threedns.transfer);
  }
}
