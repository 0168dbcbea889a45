import { playground } from "../shared/playground";
import { OMNIGRAPH_EXAMPLES } from "./examples";

/** GraphiQL for /api/omnigraph, with the Omnigraph's examples. */
export const omnigraphPlayground = playground({ title: "nameindex /api/omnigraph", examples: OMNIGRAPH_EXAMPLES });
