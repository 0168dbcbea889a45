import { handlerSettings } from "../shared/ens-handlers/context";
import * as ETHRegistrar from "./handlers/ETHRegistrar";
import * as Registry from "./handlers/Registry";
import * as RegistryTransfers from "./handlers/RegistryTransfers";
import { deriveEnsv2RowKeys } from "./lib/key-derivations";

/** The ensv2 plugin: ENSv2's registries, `.eth` registrar and permissions. Each handler file registers only what Ponder indexes. */
export function register(): void {
  deriveEnsv2RowKeys(handlerSettings);
  for (const handlers of [Registry, RegistryTransfers, ETHRegistrar]) handlers.register();
}
