import * as BaseRegistrars from "./handlers/BaseRegistrars";
import * as EthControllers from "./handlers/EthControllers";
import * as L2Controllers from "./handlers/L2Controllers";

/** The registrars plugin: registrations and renewals with their prices and referrals. Each handler file registers only the contracts Ponder indexes. */
export function register(): void {
  for (const handlers of [BaseRegistrars, EthControllers, L2Controllers]) {
    handlers.register();
  }
}
