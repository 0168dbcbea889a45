import { onResolverEvents } from "../../shared/resolver-handlers";

// The 3DNS resolver on each chain that has one.
onResolverEvents("threedns/threednsOptimism/Resolver");
onResolverEvents("threedns/threednsBase/Resolver");
