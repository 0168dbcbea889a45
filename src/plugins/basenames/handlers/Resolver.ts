import { getConfig } from "../../../config";
import { isIndexed } from "../../shared/register";
import { onResolverEvents } from "../../shared/resolver-handlers";

export function register(): void {
  // Resolver events from any address on Base — except the 3DNS resolver's when the threedns plugin indexes it, so
  // one log is not applied twice.
  onResolverEvents("basenames/Resolver", {
    skipAddress: isIndexed("threedns/threednsBase/Resolver")
      ? getConfig().namespace.datasources.threednsBase?.contracts.ThreeDNSResolver?.address
      : undefined,
  });
}
