import * as BaseRegistrar from "./handlers/BaseRegistrar";
import * as RegistrarControllers from "./handlers/RegistrarControllers";
import * as Registry from "./handlers/Registry";
import * as Resolver from "./handlers/Resolver";

/** The basenames plugin: Basenames on Base. Each handler file registers only the contracts Ponder indexes. */
export function register(): void {
  for (const handlers of [BaseRegistrar, RegistrarControllers, Registry, Resolver]) {
    handlers.register();
  }
}
