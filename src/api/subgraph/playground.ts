import { playground } from "../shared/playground";
import { SUBGRAPH_EXAMPLES } from "./examples";

/** GraphiQL for /subgraph, with The Graph-style examples. */
export const subgraphPlayground = playground({ title: "nameindex /subgraph", examples: SUBGRAPH_EXAMPLES });
