import { onResolverEvents } from "../../shared/resolver-handlers";

export function register(): void {
  // Resolver events from any address on Linea.
  onResolverEvents("lineanames/Resolver");
}
