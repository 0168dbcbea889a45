import * as BaseRegistrar from "./handlers/BaseRegistrar";
import * as LegacyEthRegistrarController from "./handlers/LegacyEthRegistrarController";
import * as NameWrapper from "./handlers/NameWrapper";
import * as Registry from "./handlers/Registry";
import * as RegistryOld from "./handlers/RegistryOld";
import * as Resolver from "./handlers/Resolver";
import * as UnwrappedEthRegistrarController from "./handlers/UnwrappedEthRegistrarController";
import * as WrappedEthRegistrarController from "./handlers/WrappedEthRegistrarController";

/** The subgraph plugin: ENS on the root chain with the ENS subgraph's semantics. Each handler file registers only the contracts Ponder indexes. */
export function register(): void {
  for (const handlers of [
    BaseRegistrar,
    LegacyEthRegistrarController,
    NameWrapper,
    Registry,
    RegistryOld,
    Resolver,
    UnwrappedEthRegistrarController,
    WrappedEthRegistrarController,
  ]) {
    handlers.register();
  }
}
