import {
  type DocumentNode,
  type ExecutionResult,
  execute,
  type GraphQLFormattedError,
  type GraphQLSchema,
  Kind,
  parse,
  print,
  specifiedRules,
  VariablesInAllowedPositionRule,
  validate,
} from "graphql";
import { isDatabaseUnavailable, statusOfErrors } from "../shared/database-unavailable";
import { checkDocumentShape, jsonDepth, MAX_NESTING, nestingDepth, type ShapeLimits } from "../shared/document-shape";
import { formatExecutionError } from "../shared/graphql-errors";
import type { WriteGeneration } from "../shared/pglite-writes";
import { type CacheOutcome, coalesce, type QueryCache, stableJson, untilNextWrite } from "../shared/query-cache";
import { operationOf } from "../shared/selection-walk";
import type { SubgraphHistory } from "./at-block";
import { type AnswerBody, introspectionAnswers, type Prepared, preparedDocuments } from "./caches";
import { blockBudget, rpcChainBlocks } from "./chain-blocks";
import { SubgraphQueryError } from "./errors";
import { asGraphNodeCoerces, RULES_GRAPH_NODE_SKIPS } from "./graph-node-coercion";
import {
  checkDocumentLimits,
  DEFAULT_LIMITS,
  LenientVariablesInAllowedPositionRule,
  type Limits,
  MAX_PARSE_TOKENS,
  MAX_VALIDATION_ERRORS,
} from "./limits";
import { Loader, type SubgraphDb } from "./loader";
import { type PonderMetaOptions, ponderBlockLookup, ponderCheckpointMeta } from "./meta";
import { buildSubgraphSchema, type SubgraphContext, type SubgraphMeta } from "./schema";
import { unchangedTablesOf } from "./unchanged-tables";

/*
 * The request pipeline of /subgraph, apart from HTTP (transport.ts): a request's text and variables are checked, its
 * document parsed and validated once per text (caches.ts), answered from the query-result cache (../shared/query-cache.ts) when one
 * is configured, else executed against the schema (schema.ts), whose resolvers load rows through the Loader.
 */

export interface SubgraphOptions {
  db: SubgraphDb;
  /** `_meta` and the `block:` argument's head. Default: Ponder's checkpoint of `rootChain`. */
  getMeta?: () => Promise<SubgraphMeta>;
  /** The ENS root chain and the history kept of it, from the config (src/api/index.ts passes them, as it does `db`). */
  rootChain?: RootChainSettings;
  /**
   * The entity history, for `block:` below the head and `_change_block`. Default: `rootChain`'s (none without it, or
   * with SUBGRAPH_HISTORY_BLOCKS=none).
   */
  getHistory?: () => Promise<SubgraphHistory | undefined>;
  limits?: Partial<Limits>;
  /** Called with unexpected (non-query) errors; they reach the client as "Internal error". */
  onError?: (error: unknown) => void;
  /** Query-result cache (../shared/query-cache.ts), e.g. `new QueryCache({ maxBytes, head: ponderHeadToken(db) })`; off when absent. */
  cache?: QueryCache;
  /**
   * PGlite in the indexer's own process: its write counter (../shared/pglite-writes.ts). The default `getMeta` is then
   * read again only after a write, not per query at a block (on PGlite's one backend that read was ~1 ms a query).
   */
  writes?: WriteGeneration;
}

export interface RootChainSettings {
  id: number;
  /** RPC_URL_<id>: asked for blocks the index does not hold, within BLOCK_RPC (chain-blocks.ts); absent: never. */
  rpcUrl?: string;
  /** SUBGRAPH_HISTORY_BLOCKS: the blocks below the head kept (null: every block; 0: none, only the head is answered). */
  historyBlocks: number | null;
  /** SUBGRAPH_HISTORY_LIVE_TABLES: a table unchanged since a block is read through its live table. */
  liveTables: boolean;
}

const RULES = [
  ...specifiedRules.filter((r) => r !== VariablesInAllowedPositionRule && !RULES_GRAPH_NODE_SKIPS.includes(r)),
  LenientVariablesInAllowedPositionRule,
];

let sharedSchema: GraphQLSchema | undefined;
export function subgraphSchema(): GraphQLSchema {
  sharedSchema ??= buildSubgraphSchema();
  return sharedSchema;
}

export interface SubgraphRequest {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

export interface SubgraphResponse {
  status: number;
  body: AnswerBody;
  /** SQL statements the request ran. */
  statements: number;
  /** The body serialized, when it was computed for the cache. */
  json?: string;
  /** The body serialized as UTF-8, when the cache answered it (`body` is then parsed from it on demand). */
  encoded?: Buffer;
  /** How the query-result cache answered, when one is configured and the request reached it. */
  cache?: CacheOutcome | "bypass";
}

const failure = (status: number, message: string): SubgraphResponse => ({
  status,
  body: { errors: [{ message }] },
  statements: 0,
});

function prepare(
  schema: GraphQLSchema,
  query: string,
  limits: ShapeLimits & { maxQueryBytes: number },
  options: SubgraphOptions,
): Prepared {
  // Keyed by the limits too: apps built with other limits (tests) must not share a verdict.
  const key = `${limits.maxQueryBytes}/${limits.maxAliases}/${limits.maxFields}/${limits.maxOperations}/${limits.maxDirectives}\n${query}`;
  const cached = preparedDocuments.get(key);
  if (cached) return cached;
  let prepared: Prepared;
  if (Buffer.byteLength(query) > limits.maxQueryBytes) {
    prepared = { errors: [queryTooLarge(query, limits.maxQueryBytes)] };
  } else if (nestingDepth(query) > MAX_NESTING) {
    prepared = { errors: [{ message: `Query or variables are nested more than ${MAX_NESTING} levels deep` }] };
  } else {
    prepared = parseAndValidate(schema, query, limits, options);
  }
  preparedDocuments.set(key, prepared);
  return prepared;
}

const queryTooLarge = (query: string, maxBytes: number): GraphQLFormattedError => ({
  message: `Query is too large: ${Buffer.byteLength(query)} bytes, the limit is ${maxBytes}`,
});

function parseAndValidate(
  schema: GraphQLSchema,
  query: string,
  limits: ShapeLimits,
  options: SubgraphOptions,
): Prepared {
  try {
    const parsed = parse(query, { maxTokens: MAX_PARSE_TOKENS });
    const shapeErrors = checkDocumentShape(parsed, limits);
    const document = shapeErrors.length > 0 ? parsed : asGraphNodeCoerces(schema, parsed);
    const errors =
      shapeErrors.length > 0 ? shapeErrors : validate(schema, document, RULES, { maxErrors: MAX_VALIDATION_ERRORS });
    // graphql-js's own budget for comparing overlapping fields ends in a bare "Validation aborted.": say what it means.
    const formatted = errors.map((e) =>
      e.message === "Validation aborted."
        ? { message: "Query is too complex to validate: it has too many overlapping fields" }
        : e.toJSON(),
    );
    return errors.length > 0 ? { errors: formatted } : { document };
  } catch (e) {
    return { errors: [toFormatted(e, options)] };
  }
}

/** Executes one GraphQL request against our tables. Problems with the request come back as GraphQL errors. */
export async function executeSubgraphRequest(
  request: SubgraphRequest,
  options: ResolvedOptions,
): Promise<SubgraphResponse> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const { query, operationName } = request;
  let { variables } = request;
  if (typeof query !== "string" || !/\S/.test(query)) return failure(400, "Must provide a query string");
  // Longer in UTF-16 units than the limit in bytes: too large for sure, and not worth a place among the prepared texts.
  if (query.length > limits.maxQueryBytes)
    return { status: 200, body: { errors: [queryTooLarge(query, limits.maxQueryBytes)] }, statements: 0 };
  if (typeof variables === "string" && variables.trim() !== "") {
    try {
      variables = JSON.parse(variables);
    } catch {
      return failure(400, "Variables are not valid JSON");
    }
  }
  if (variables === "" || variables === undefined) variables = null;
  if (variables !== null && (typeof variables !== "object" || Array.isArray(variables))) {
    return failure(400, "Variables must be a JSON object");
  }
  if (operationName !== undefined && operationName !== null && typeof operationName !== "string") {
    return failure(400, "operationName must be a string");
  }

  if (jsonDepth(variables) > MAX_NESTING) {
    return failure(200, `Query or variables are nested more than ${MAX_NESTING} levels deep`);
  }
  const schema = subgraphSchema();
  // The query text's own size and nesting are checked here, once per distinct text.
  const prepared = prepare(schema, query, limits, options);
  if ("errors" in prepared) return { status: 200, body: { errors: prepared.errors }, statements: 0 };
  const { document } = prepared;
  const vars = (variables ?? {}) as Record<string, unknown>;
  const opName = (operationName ?? undefined) as string | undefined;

  if (options.cache && !introspectionOnly(document, opName)) {
    const cache = options.cache;
    let head: string | undefined;
    try {
      head = await cache.head();
    } catch (e) {
      // No head to key on (the checkpoint table is unreadable): answer uncached rather than risk a stale answer.
      if (!isDatabaseUnavailable(e)) (options.onError ?? ((err) => console.error("[subgraph] query cache:", err)))(e);
    }
    if (head !== undefined) {
      // The shape limits are part of `prepare`'s key and the other limits are fixed per app (and per cache), so an
      // answer cached for this document, operation and variables already passed checkDocumentLimits.
      prepared.normalized ??= print(document);
      const key = `${opName ?? ""}\n${stableJson(vars)}\n${prepared.normalized}`;
      const { result, outcome } = await cache.run(head, key, async () => {
        const r = await executeDocument(schema, document, opName, vars, limits, options);
        const json = JSON.stringify(r.body);
        return { ...r, json, cacheable: r.status === 200 && !r.body.errors && !namesBlockWithoutHash(r.body) };
      });
      if ("body" in result) return { ...result, cache: outcome };
      const { encoded } = result;
      return {
        status: 200,
        encoded,
        get body() {
          return JSON.parse(encoded.toString("utf8")) as SubgraphResponse["body"];
        },
        statements: 0,
        cache: outcome,
      };
    }
  }
  const r = await executeDocument(schema, document, opName, vars, limits, options);
  return options.cache ? { ...r, cache: "bypass" } : r;
}

async function executeDocument(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  vars: Record<string, unknown>,
  limits: Limits,
  options: ResolvedOptions,
): Promise<SubgraphResponse> {
  const limitErrors = checkDocumentLimits(schema, document, operationName, vars, limits);
  if (limitErrors.length > 0) {
    return { status: 200, body: { errors: limitErrors.map((e) => e.toJSON()) }, statements: 0 };
  }

  const introspectionKey = introspectionOnly(document, operationName)
    ? `${print(document)}\n${JSON.stringify(vars)}\n${String(operationName)}`
    : undefined;
  const known = introspectionKey === undefined ? undefined : introspectionAnswers.get(introspectionKey);
  if (known) return { status: 200, body: known, statements: 0 };

  const loader = new Loader(options.db);
  let metaPromise: Promise<SubgraphMeta> | undefined;
  const context: SubgraphContext = {
    loader,
    // One read of the head per request, so every root field agrees on it.
    meta: () => (metaPromise ??= options.getMeta()),
    limits,
    history: await options.getHistory?.(),
  };
  let result: ExecutionResult;
  try {
    result = await execute({
      schema,
      document,
      variableValues: vars,
      operationName,
      contextValue: context,
    });
  } catch (e) {
    const errors = [toFormatted(e, options)];
    return { status: statusOfErrors(errors), body: { errors }, statements: loader.statements };
  }
  const body: SubgraphResponse["body"] = {};
  if (result.errors?.length) body.errors = result.errors.map((e) => toFormatted(e, options));
  if (result.data !== undefined) body.data = result.data;
  if (introspectionKey !== undefined && !body.errors) {
    introspectionAnswers.set(introspectionKey, body);
  }
  return { status: statusOfErrors(body.errors), body, statements: loader.statements };
}

function introspectionOnly(document: DocumentNode, operationName: string | undefined): boolean {
  const operation = operationOf(document, operationName);
  return (
    operation !== undefined &&
    operation.operation === "query" &&
    operation.selectionSet.selections.every((s) => s.kind === Kind.FIELD && s.name.value.startsWith("__"))
  );
}

const isQueryError = (e: unknown): e is SubgraphQueryError => e instanceof SubgraphQueryError;

function toFormatted(e: unknown, options: SubgraphOptions): GraphQLFormattedError {
  return formatExecutionError(e, options.onError ?? ((err) => console.error("[subgraph]", err)), isQueryError);
}

/**
 * Whether an answer's `_meta` (under any alias) names its block without the hash: the hash was not found this time (a
 * lagging node behind the RPC's load balancer did not know the block yet), and a cached copy would keep it missing
 * until the next block is indexed.
 */
function namesBlockWithoutHash(body: { data?: unknown }): boolean {
  if (typeof body.data !== "object" || body.data === null) return false;
  return Object.values(body.data).some((field) => {
    const block = (field as { block?: { hash?: unknown } } | null)?.block;
    return typeof block === "object" && block !== null && block.hash === null;
  });
}

export type ResolvedOptions = SubgraphOptions & { getMeta: () => Promise<SubgraphMeta> };

/** The options with a `getMeta` (the caller's, or Ponder's checkpoint of `rootChain`) and `rootChain`'s history. */
export function resolveOptions(options: SubgraphOptions): ResolvedOptions {
  const root = options.rootChain;
  if (!root) {
    if (!options.getMeta) throw new Error("/subgraph needs `getMeta` or `rootChain`");
    return { ...options, getMeta: options.getMeta };
  }
  // One chain and one budget per server: `_meta`'s head and every `block:` spend from the same bound.
  const source = {
    db: options.db,
    chainId: root.id,
    chain: root.rpcUrl ? rpcChainBlocks(root.rpcUrl) : undefined,
    budget: blockBudget(),
  };
  // SUBGRAPH_HISTORY_BLOCKS=none: no versions are written, so only the head can be answered.
  const history =
    root.historyBlocks === 0
      ? undefined
      : historyOf({ ...source, retainedBlocks: root.historyBlocks, liveTables: root.liveTables });
  return {
    ...options,
    getMeta: options.getMeta ?? headMeta(ponderCheckpointMeta(source), options.writes),
    getHistory: options.getHistory ?? (async () => history),
  };
}

/**
 * The history of the ENS root chain as the API reads it: versions kept for `retainedBlocks` (null: all), and with
 * `liveTables` the live table for a table unchanged since a block.
 */
function historyOf(
  source: PonderMetaOptions & { retainedBlocks: number | null; liveTables: boolean },
): SubgraphHistory {
  return {
    chainId: source.chainId,
    retainedBlocks: source.retainedBlocks,
    unchangedTables: source.liveTables ? unchangedTablesOf(source.db) : undefined,
    blocks: ponderBlockLookup(source),
  };
}

/**
 * The head as requests read it. On PGlite in the indexer's process, read again only after a write (and while the
 * RPC did not know the head's hash yet, as ponderCheckpointMeta itself does). Elsewhere (PostgreSQL, replicas) other
 * processes write: one read per event-loop turn, shared by the requests that arrived in it, each at a past block (a
 * round trip before its own statements; at 32 connections, as many reads).
 */
function headMeta(read: () => Promise<SubgraphMeta>, writes: WriteGeneration | undefined): () => Promise<SubgraphMeta> {
  return writes ? untilNextWrite(read, writes, (m) => m.block?.hash !== null) : coalesce(read);
}
