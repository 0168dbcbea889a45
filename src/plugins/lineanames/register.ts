import * as BaseRegistrar from "./handlers/BaseRegistrar";
import * as EthRegistrarController from "./handlers/EthRegistrarController";
import * as NameWrapper from "./handlers/NameWrapper";
import * as Registry from "./handlers/Registry";
import * as Resolver from "./handlers/Resolver";

/** The lineanames plugin: Lineanames on Linea. Each handler file registers only the contracts Ponder indexes. */
export function register(): void {
  for (const handlers of [BaseRegistrar, EthRegistrarController, NameWrapper, Registry, Resolver]) {
    handlers.register();
  }
}
