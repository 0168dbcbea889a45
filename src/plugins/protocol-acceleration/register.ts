import * as Registry from "./handlers/Registry";
import * as Resolver from "./handlers/Resolver";
import * as ReverseRegistrars from "./handlers/ReverseRegistrars";
import * as ThreeDNSToken from "./handlers/ThreeDNSToken";

/** The protocol-acceleration plugin: the resolution index (resolvers, registries' resolver links, primary names). Each handler file registers only the contracts Ponder indexes. */
export function register(): void {
  for (const handlers of [Registry, Resolver, ReverseRegistrars, ThreeDNSToken]) {
    handlers.register();
  }
}
