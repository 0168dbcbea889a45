/*
 * /subgraph: The Graph's query API for the ENS subgraph's entities, served from our tables.
 *   app.route("/subgraph", createSubgraphApp({ db, rootChain: { id, rpcUrl, historyBlocks, liveTables } }));
 *
 * Semantics mirrored from The Graph: ids and relation filters (`owner: "0x…"`) compare as case-sensitive strings
 * (the index stores them lowercase), Bytes compare as bytes (any hex case); `orderBy` sorts nulls last ascending
 * and first descending, then by id in the same direction; `first` defaults to 100 (0–1000), `skip` 0–5000.
 * `block:` and `_change_block` read the entity history (at-block.ts, reading.ts; docs/api.md, "/subgraph at a past block"). GraphQL
 * errors answer 200; only a request that is not GraphQL at all (bad JSON, no query) answers 400.
 */
/*
 * The folder's face; README.md maps the rest (model → schema → loader → sql, relations, caches and their keys).
 */

export { ponderHeadToken, QueryCache, untilNextWrite } from "../shared/query-cache";
export { DEFAULT_LIMITS, type Limits } from "./limits";
export type { SubgraphDb } from "./loader";
export { ponderCheckpointMeta } from "./meta";
export {
  executeSubgraphRequest,
  type SubgraphOptions,
  type SubgraphRequest,
  type SubgraphResponse,
  subgraphSchema,
} from "./pipeline";
export type { BlockRef, SubgraphMeta } from "./schema";
export { createSubgraphApp, createSubgraphServer, type SubgraphAnswer, type SubgraphServer } from "./transport";
