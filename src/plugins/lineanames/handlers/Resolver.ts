import { onResolverEvents } from "../../shared/resolver-handlers";

// Resolver events from any address on Linea.
onResolverEvents("lineanames/Resolver");
