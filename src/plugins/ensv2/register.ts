import * as ETHRegistrar from "./handlers/ETHRegistrar";
import * as Registry from "./handlers/Registry";

/** The ensv2 plugin: ENSv2's registries, `.eth` registrar and permissions. Each handler file registers only what Ponder indexes. */
export function register(): void {
  for (const handlers of [Registry, ETHRegistrar]) handlers.register();
}
