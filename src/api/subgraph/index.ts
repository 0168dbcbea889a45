import {
  type DocumentNode,
  execute,
  type ExecutionResult,
  GraphQLError,
  type GraphQLFormattedError,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  parse,
  print,
  specifiedRules,
  validate,
  VariablesInAllowedPositionRule,
} from "graphql";
import type { IncomingMessage, ServerResponse } from "node:http";
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { discardNodeBody, readNodeBody, unreadNodeRequest } from "../node-body";
import { settle } from "../settle-response";
import { type CacheOutcome, type QueryCache, stableJson } from "./cache";
import { SubgraphQueryError } from "./errors";
import { asGraphNodeCoerces, RULES_GRAPH_NODE_SKIPS } from "./graph-node-coercion";
import {
  checkDocumentLimits,
  checkDocumentShape,
  type DocumentLimits,
  jsonDepth,
  LenientVariablesInAllowedPositionRule,
  MAX_NESTING,
  nestingDepth,
  type ShapeLimits,
} from "./limits";
import { Loader, type SubgraphDb } from "./loader";
import { ponderCheckpointMeta } from "./meta";
import { PLAYGROUND_HTML } from "./playground";
import { buildSubgraphSchema, type SubgraphContext, type SubgraphLimits, type SubgraphMeta } from "./schema";

export type { SubgraphDb } from "./loader";
export type { SubgraphMeta, BlockRef } from "./schema";
export { ponderCheckpointMeta } from "./meta";
export { QueryCache, ponderHeadToken, tokenUntilNextWrite } from "./cache";

/*
 * /subgraph: The Graph's query API for the ENS subgraph's entities, served from our tables.
 *   app.route("/subgraph", createSubgraphApp({ db, publicClients }));
 *
 * Semantics mirrored from The Graph: ids and relation filters (`owner: "0x…"`) compare as case-sensitive strings
 * (the index stores them lowercase), Bytes compare as bytes (any hex case); `orderBy` sorts nulls last ascending
 * and first descending, then by id in the same direction; `first` defaults to 100 (0–1000), `skip` 0–5000.
 * Only the indexed head is served: a `block:` argument naming another block is an error. GraphQL errors answer
 * 200; only a request that is not GraphQL at all (bad JSON, no query) answers 400.
 */

export interface SubgraphOptions {
  db: SubgraphDb;
  /** `_meta` and the `block:` argument's head. Default: Ponder's checkpoint of the ENS root chain. */
  getMeta?: () => Promise<SubgraphMeta>;
  /** Ponder's viem clients by chain name (`ponder:api`), used by the default `getMeta` for block hashes. */
  publicClients?: Record<string, unknown>;
  limits?: Partial<Limits>;
  /** Called with unexpected (non-query) errors; they reach the client as "Internal error". */
  onError?: (error: unknown) => void;
  /** Query-result cache (cache.ts), e.g. `new QueryCache({ maxBytes, head: ponderHeadToken(db) })`; off when absent. */
  cache?: QueryCache;
}

export interface Limits extends SubgraphLimits, DocumentLimits {
  /** Bytes of query text. */
  maxQueryBytes: number;
  /** Bytes of a POST body (query plus variables). */
  maxBodyBytes: number;
}

export const DEFAULT_LIMITS: Limits = {
  maxFirst: 1000,
  maxSkip: 5000,
  maxDepth: 10,
  maxAliases: 30,
  maxFields: 1000,
  maxOperations: 20,
  maxDirectives: 50,
  maxRows: 100_000,
  maxQueryBytes: 20 * 1024,
  maxBodyBytes: 256 * 1024,
};

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
  body: { data?: unknown; errors?: GraphQLFormattedError[] };
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

type Prepared = { document: DocumentNode; normalized?: string } | { errors: GraphQLFormattedError[] };

/**
 * Parsed and validated documents by query text. Clients send the same few query texts with different variables,
 * and validating against this schema costs more than running the SQL, so each text is checked once.
 */
const documents = new Map<string, Prepared>();
const DOCUMENT_CACHE_SIZE = 500;

/** Validation stops after this many errors: listing a thousand unknown fields (with suggestions) is wasted work. */
const MAX_VALIDATION_ERRORS = 10;

function prepare(schema: GraphQLSchema, query: string, limits: ShapeLimits & { maxQueryBytes: number }, options: SubgraphOptions): Prepared {
  // Keyed by the limits too: apps built with other limits (tests) must not share a verdict.
  const key = `${limits.maxQueryBytes}/${limits.maxAliases}/${limits.maxFields}/${limits.maxOperations}/${limits.maxDirectives}\n${query}`;
  const cached = documents.get(key);
  if (cached) {
    // Refresh its place: the map iterates oldest first, which is what gets evicted.
    documents.delete(key);
    documents.set(key, cached);
    return cached;
  }
  let prepared: Prepared;
  if (Buffer.byteLength(query) > limits.maxQueryBytes) {
    prepared = { errors: [queryTooLarge(query, limits.maxQueryBytes)] };
  } else if (nestingDepth(query) > MAX_NESTING) {
    prepared = { errors: [{ message: `Query or variables are nested more than ${MAX_NESTING} levels deep` }] };
  } else {
    prepared = parseAndValidate(schema, query, limits, options);
  }
  documents.set(key, prepared);
  if (documents.size > DOCUMENT_CACHE_SIZE) documents.delete(documents.keys().next().value!);
  return prepared;
}

const queryTooLarge = (query: string, maxBytes: number): GraphQLFormattedError => ({
  message: `Query is too large: ${Buffer.byteLength(query)} bytes, the limit is ${maxBytes}`,
});

function parseAndValidate(schema: GraphQLSchema, query: string, limits: ShapeLimits, options: SubgraphOptions): Prepared {
  try {
    const parsed = parse(query, { maxTokens: 10_000 });
    const shapeErrors = checkDocumentShape(parsed, limits);
    const document = shapeErrors.length > 0 ? parsed : asGraphNodeCoerces(schema, parsed);
    const errors = shapeErrors.length > 0 ? shapeErrors : validate(schema, document, RULES, { maxErrors: MAX_VALIDATION_ERRORS });
    // graphql-js's own budget for comparing overlapping fields ends in a bare "Validation aborted.": say what it means.
    const formatted = errors.map((e) => (e.message === "Validation aborted." ? { message: "Query is too complex to validate: it has too many overlapping fields" } : e.toJSON()));
    return errors.length > 0 ? { errors: formatted } : { document };
  } catch (e) {
    return { errors: [toFormatted(e, options)] };
  }
}

/** Executes one GraphQL request against our tables. Problems with the request come back as GraphQL errors. */
export async function executeSubgraphRequest(
  request: SubgraphRequest,
  options: SubgraphOptions & { getMeta: () => Promise<SubgraphMeta> },
): Promise<SubgraphResponse> {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const { query, operationName } = request;
  let { variables } = request;
  if (typeof query !== "string" || !/\S/.test(query)) return failure(400, "Must provide a query string");
  // Longer in UTF-16 units than the limit in bytes: too large for sure, and not worth a place among the prepared texts.
  if (query.length > limits.maxQueryBytes) return { status: 200, body: { errors: [queryTooLarge(query, limits.maxQueryBytes)] }, statements: 0 };
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
      (options.onError ?? ((err) => console.error("[subgraph] query cache:", err)))(e);
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
  options: SubgraphOptions & { getMeta: () => Promise<SubgraphMeta> },
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
    return { status: 200, body: { errors: [toFormatted(e, options)] }, statements: loader.statements };
  }
  const body: SubgraphResponse["body"] = {};
  if (result.errors?.length) body.errors = result.errors.map((e) => toFormatted(e, options));
  if (result.data !== undefined) body.data = result.data;
  if (introspectionKey !== undefined && !body.errors) {
    introspectionAnswers.set(introspectionKey, body);
    if (introspectionAnswers.size > INTROSPECTION_CACHE_SIZE) introspectionAnswers.delete(introspectionAnswers.keys().next().value!);
  }
  return { status: 200, body, statements: loader.statements };
}

/**
 * Answers to introspection-only operations, by printed document (so comments and spacing do not matter). The schema
 * is fixed for the life of the process, and a full introspection of it costs more CPU than any data query.
 */
const introspectionAnswers = new Map<string, SubgraphResponse["body"]>();
const INTROSPECTION_CACHE_SIZE = 20;

function introspectionOnly(document: DocumentNode, operationName: string | undefined): boolean {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
  return (
    operation !== undefined &&
    operation.operation === "query" &&
    operation.selectionSet.selections.every((s) => s.kind === Kind.FIELD && s.name.value.startsWith("__"))
  );
}

function toFormatted(e: unknown, options: SubgraphOptions): GraphQLFormattedError {
  if (e instanceof GraphQLError) {
    const original = e.originalError;
    // A resolver failed: a query problem is the client's to read; anything else (database) stays in our logs.
    if (original && !(original instanceof GraphQLError)) {
      (options.onError ?? ((err) => console.error("[subgraph]", err)))(original);
      return { message: "Internal error while executing the query", locations: e.locations, path: e.path };
    }
    return e.toJSON();
  }
  if (e instanceof SubgraphQueryError) return { message: e.message };
  (options.onError ?? ((err) => console.error("[subgraph]", err)))(e);
  return { message: "Internal error while executing the query" };
}

function defaultMeta(options: SubgraphOptions): () => Promise<SubgraphMeta> {
  let meta: (() => Promise<SubgraphMeta>) | undefined;
  return async () => {
    if (!meta) {
      // Loaded lazily so that tests and tools using an explicit getMeta never parse the environment.
      const { getConfig } = await import("../../config");
      const chain = getConfig().namespace.datasources.ensroot?.chain;
      if (!chain) throw new Error("the namespace has no ENS root datasource");
      meta = ponderCheckpointMeta({
        db: options.db,
        chainId: chain.id,
        publicClient: options.publicClients?.[chain.name] as Parameters<typeof ponderCheckpointMeta>[0]["publicClient"],
      });
    }
    return meta();
  };
}

/**
 * Headers of every /subgraph answer. Browser apps (the ENS manager app, ensjs in a page) query subgraphs
 * cross-origin; hono's cors middleware runs only for preflights, because on other requests it makes hono build the
 * response twice (a default one for its header, then a merged copy), which costs more than a cached answer.
 */
const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "application/json; charset=utf-8",
  "access-control-allow-origin": "*",
});

/** An answer of /subgraph, independent of the HTTP server that sends it. */
export interface SubgraphAnswer {
  status: number;
  /** JSON text, or its UTF-8 bytes (a cached answer). */
  body: string | Buffer;
  headers: Readonly<Record<string, string>>;
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

/** JSON_HEADERS plus how the query-result cache answered: one shared object per outcome, not one per request. */
const headersByCacheOutcome = new Map<string, Readonly<Record<string, string>>>();
function answerHeaders(cache: SubgraphResponse["cache"]): Readonly<Record<string, string>> {
  if (cache === undefined) return JSON_HEADERS;
  let headers = headersByCacheOutcome.get(cache);
  if (!headers) headersByCacheOutcome.set(cache, (headers = Object.freeze({ ...JSON_HEADERS, "x-subgraph-cache": cache })));
  return headers;
}

const errorAnswer = (status: number, message: string, extra?: Record<string, string>): SubgraphAnswer => ({
  status,
  body: JSON.stringify({ errors: [{ message }] }),
  headers: extra ? { ...JSON_HEADERS, ...extra } : JSON_HEADERS,
});

/** What a request the app itself failed on answers (as Ponder's and our API's onError do). */
const INTERNAL_ERROR: SubgraphAnswer = { status: 500, body: JSON.stringify({ message: "Internal Server Error" }), headers: JSON_HEADERS };

async function answerRequest(request: SubgraphRequest, options: ResolvedOptions): Promise<SubgraphAnswer> {
  const r = await executeSubgraphRequest(request, options);
  return { status: r.status, body: r.encoded ?? r.json ?? JSON.stringify(r.body), headers: answerHeaders(r.cache) };
}

/** The answer to a POST body: JSON with a `query`, or (`application/graphql`) the query itself. */
function answerPostBody(text: string, contentType: string, options: ResolvedOptions): Promise<SubgraphAnswer> | SubgraphAnswer {
  if (contentType.includes("application/graphql")) return answerRequest({ query: text }, options);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return errorAnswer(400, "Request body is not valid JSON");
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return errorAnswer(400, "Request body must be a JSON object with a `query`");
  }
  return answerRequest(body as SubgraphRequest, options);
}

// A copy of the headers: @hono/node-server adds Content-Length to the object a Response was made with.
const toResponse = (answer: SubgraphAnswer) =>
  new Response(typeof answer.body === "string" ? answer.body : new Uint8Array(answer.body), {
    status: answer.status,
    headers: { ...answer.headers },
  });

type ResolvedOptions = SubgraphOptions & { getMeta: () => Promise<SubgraphMeta> };

/** /subgraph's Hono sub-app, and the same POST answered on a bare Node.js request (see `handleNodePost`). */
export interface SubgraphServer {
  app: Hono;
  /**
   * Answers a POST from Node.js's own request and response objects: the body read from the stream, the answer
   * written with one writeHead and end, no Hono context or WHATWG Request/Response built. Ponder's server runs it
   * for /subgraph before its Hono app (src/api/node-fast-path.ts). Never throws: a failure answers 500, a client that
   * went away gets nothing. `onAnswered` gets the status and the response's size in bytes.
   */
  handleNodePost(req: IncomingMessage, res: ServerResponse, onAnswered?: (status: number, responseBytes: number) => void): void;
}

/** The Hono sub-app: GET `?query=` and POST JSON; a browser without a query gets the playground. */
export function createSubgraphApp(options: SubgraphOptions): Hono {
  return createSubgraphServer(options).app;
}

export function createSubgraphServer(options: SubgraphOptions): SubgraphServer {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const resolved: ResolvedOptions = { ...options, getMeta: options.getMeta ?? defaultMeta(options) };
  const app = new Hono();
  const preflight = cors({ origin: "*", allowMethods: ["GET", "POST", "OPTIONS"], allowHeaders: ["content-type"] });
  app.use("*", (c, next) => (c.req.method === "OPTIONS" ? preflight(c, next) : next()));

  const get = async (c: Context) => {
    const query = c.req.query("query");
    // A HEAD without a query (`curl -I`, link checkers, uptime probes) asks whether the endpoint is there: it gets the
    // playground's headers, as a browser's GET would, not the 400 of a GET that forgot its query.
    if (query === undefined && (c.req.method === "HEAD" || (c.req.header("accept") ?? "").includes("text/html"))) {
      return c.html(PLAYGROUND_HTML, 200, { "access-control-allow-origin": "*" });
    }
    const request = { query, variables: c.req.query("variables"), operationName: c.req.query("operationName") };
    return settle(c, toResponse(await answerRequest(request, resolved)));
  };

  // Checked while the body arrives (Content-Length first), not after buffering it: a client cannot make us hold a
  // body of any size in memory just to be told it is too large. The rest of the body is never read, so this
  // connection cannot carry another request.
  const tooLargeMessage = `Request body is larger than ${limits.maxBodyBytes} bytes`;
  const tooLarge = errorAnswer(413, tooLargeMessage, { connection: "close" });
  const limitBody = bodyLimit({ maxSize: limits.maxBodyBytes, onError: () => toResponse(tooLarge) });

  const post = async (c: Context) => {
    const incoming = unreadNodeRequest(c);
    let text: string;
    if (incoming) {
      const body = await readNodeBody(incoming, limits.maxBodyBytes);
      if (body === undefined) return toResponse(tooLarge);
      text = body;
    } else {
      // Other runtimes (and app.request in tests): the WHATWG request, limited by hono's bodyLimit.
      const limited = await limitBody(c, async () => {});
      if (limited) return limited;
      text = await c.req.text();
    }
    return settle(c, toResponse(await answerPostBody(text, c.req.header("content-type") ?? "", resolved)));
  };

  app.get("/", get);
  app.post("/", post);
  // Clients are configured with and without a trailing slash: serve `/subgraph/` too, nothing deeper.
  const slashOnly = (handler: (c: Context) => Promise<Response>) => (c: Context) =>
    // Not c.notFound(): mounted under Ponder, that is Ponder's plain-text 404; every error here is JSON.
    c.req.path.endsWith("/") ? handler(c) : new Response(JSON.stringify({ message: "Not Found" }), { status: 404, headers: JSON_HEADERS });
  app.get("/*", slashOnly(get));
  app.post("/*", slashOnly(post));

  // Over the limit, but small enough to read to its end and throw away: then the connection stays usable, and a
  // client still writing its body reads the 413 instead of a reset (closing at once, as Node does after
  // `connection: close`, makes its next write fail with EPIPE before it ever sees the answer).
  const discardLimit = Math.max(limits.maxBodyBytes * 4, 4 * 1024 * 1024);
  const tooLargeKeepAlive = errorAnswer(413, tooLargeMessage);
  const refuseBody = (req: IncomingMessage): SubgraphAnswer => (discardNodeBody(req, discardLimit) ? tooLargeKeepAlive : tooLarge);

  const handleNodePost: SubgraphServer["handleNodePost"] = (req, res, onAnswered) => {
    const send = (answer: SubgraphAnswer) => {
      const bytes = typeof answer.body === "string" ? Buffer.byteLength(answer.body) : answer.body.length;
      res.writeHead(answer.status, { ...answer.headers, "content-length": String(bytes) });
      res.end(answer.body);
      onAnswered?.(answer.status, bytes);
    };
    readNodeBody(req, limits.maxBodyBytes)
      .then((text) => (text === undefined ? refuseBody(req) : answerPostBody(text, req.headers["content-type"] ?? "", resolved)))
      .then(send, (error: unknown) => {
        // The client went away mid-body: nobody to answer.
        if (req.destroyed || res.destroyed || !req.complete) return void res.destroy();
        (options.onError ?? ((err) => console.error("[subgraph]", err)))(error);
        send(INTERNAL_ERROR);
      })
      .catch((error: unknown) => {
        console.error("[subgraph] writing an answer failed:", error);
        res.destroy();
      });
  };

  return { app, handleNodePost };
}
