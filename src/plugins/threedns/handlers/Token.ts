import { setupRootDomain } from "../../../lib/ens-handlers/registry";
import { isIndexed, on, onSetup } from "../../shared/register";
import * as threedns from "../lib/registrations";

// The 3DNS token on each chain that has one.
for (const C of ["threedns/threednsOptimism/Token", "threedns/threednsBase/Token"]) {
  if (!isIndexed(C)) continue;
  onSetup(C, setupRootDomain);
  on(`${C}:RegistrationCreated`, threedns.registrationCreated);
  on(`${C}:RegistrationExtended`, threedns.registrationExtended);
  on(`${C}:RegistrationTransferred`, threedns.registrationTransferred);
  on(`${C}:RegistrationBurned`, threedns.registrationBurned);
}
