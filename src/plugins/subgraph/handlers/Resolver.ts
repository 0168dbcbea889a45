import { onResolverEvents } from "../../shared/resolver-handlers";

// Resolver events from any address on the ENS root chain.
onResolverEvents("subgraph/Resolver");
