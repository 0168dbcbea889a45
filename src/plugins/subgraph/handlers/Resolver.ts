import { onResolverEvents } from "../../shared/resolver-handlers";

export function register(): void {
  // Resolver events from any address on the ENS root chain.
  onResolverEvents("subgraph/Resolver");
}
