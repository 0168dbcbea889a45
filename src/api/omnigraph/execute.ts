import {
  type DocumentNode,
  execute,
  GraphQLError,
  type GraphQLFormattedError,
  type GraphQLSchema,
  parse,
  print,
  specifiedRules,
  validate,
} from "graphql";
import { BoundedMap } from "../../lib/bounded-map";
import { isDatabaseUnavailable, statusOfErrors } from "../shared/database-unavailable";
import { checkDocumentShape, jsonDepth, MAX_NESTING, nestingDepth, type ShapeLimits } from "../shared/document-shape";
import { formatExecutionError } from "../shared/graphql-errors";
import { type QueryCache, stableJson } from "../shared/query-cache";
import type { CompileBudget } from "./compile-guard";
import { COMPILE_AFTER_USES, executeCompiled, HotDocument } from "./compiled";
import { OmnigraphContext, type OmnigraphDeps } from "./context";
import {
  checkOmnigraphLimits,
  DEFAULT_OMNIGRAPH_LIMITS,
  MAX_PARSE_TOKENS,
  type OmnigraphLimits,
  SHAPE_LIMITS,
} from "./limits";
import { buildOmnigraphSchema } from "./schema";

/*
 * One Omnigraph request: checked (size, shape, validation, limits), executed, its answer cached on the query-result
 * cache /subgraph uses (same class, same head; keys of their own). A problem with the request is a GraphQL error
 * with status 200; a request that is not GraphQL at all is a 400.
 */

export interface OmnigraphOptions extends OmnigraphDeps {
  cache?: QueryCache;
  limits?: Partial<OmnigraphLimits & ShapeLimits & { maxQueryBytes: number }>;
  onError?: (error: unknown) => void;
  /** On which execution of a document it runs compiled (compiled.ts); `Infinity`: always on graphql-js. */
  compileAfterUses?: number;
  /** The compile time documents may spend (the process's, unless a test brings its own). */
  compileBudget?: CompileBudget;
}

export interface OmnigraphResponse {
  status: number;
  body: { data?: unknown; errors?: GraphQLFormattedError[] };
  statements: number;
  json?: string;
  encoded?: Buffer;
  cache?: string;
  /** Whether the answer came from the compiled executor. */
  compiled?: boolean;
}

let schema: GraphQLSchema | undefined;
export const omnigraphSchema = () => (schema ??= buildOmnigraphSchema());

type Prepared = { document: DocumentNode; normalized: string; hot: HotDocument } | { errors: GraphQLFormattedError[] };

/** Prepared documents by query text and compile threshold (tests compare executors over the same texts). */
const documents = new BoundedMap<string, Prepared>(500);

function prepare(query: string, shape: typeof SHAPE_LIMITS, compileAfterUses: number) {
  const cacheKey = compileAfterUses === COMPILE_AFTER_USES ? query : `${compileAfterUses}\n${query}`;
  const known = documents.get(cacheKey);
  if (known) return known;
  let prepared: Prepared;
  try {
    if (nestingDepth(query) > MAX_NESTING)
      throw new GraphQLError(`Query or variables are nested more than ${MAX_NESTING} levels deep`);
    const document = parse(query, { maxTokens: MAX_PARSE_TOKENS });
    const shapeErrors = checkDocumentShape(document, shape);
    const errors =
      shapeErrors.length > 0 ? shapeErrors : validate(omnigraphSchema(), document, specifiedRules, { maxErrors: 10 });
    // graphql-js's own budget for comparing overlapping fields ends in a bare "Validation aborted.": say what it means.
    const formatted = errors.map((e) =>
      e.message === "Validation aborted."
        ? { message: "Query is too complex to validate: it has too many overlapping fields" }
        : e.toJSON(),
    );
    prepared =
      errors.length > 0
        ? { errors: formatted }
        : { document, normalized: print(document), hot: new HotDocument(document, compileAfterUses) };
  } catch (e) {
    prepared = { errors: [e instanceof GraphQLError ? e.toJSON() : { message: "Query could not be parsed" }] };
  }
  documents.set(cacheKey, prepared);
  return prepared;
}

const failure = (status: number, message: string): OmnigraphResponse => ({
  status,
  body: { errors: [{ message }] },
  statements: 0,
});

export async function executeOmnigraphRequest(
  request: { query?: unknown; variables?: unknown; operationName?: unknown },
  options: OmnigraphOptions,
): Promise<OmnigraphResponse> {
  const shape = { ...SHAPE_LIMITS, ...options.limits };
  const limits = { ...DEFAULT_OMNIGRAPH_LIMITS, ...options.limits };
  const { query, operationName } = request;
  let { variables } = request;
  if (typeof query !== "string" || !/\S/.test(query)) return failure(400, "Must provide a query string");
  if (Buffer.byteLength(query) > shape.maxQueryBytes)
    return failure(200, `Query is too large: ${Buffer.byteLength(query)} bytes, the limit is ${shape.maxQueryBytes}`);
  if (typeof variables === "string" && variables.trim() !== "") {
    try {
      variables = JSON.parse(variables);
    } catch {
      return failure(400, "Variables are not valid JSON");
    }
  }
  if (variables === "" || variables === undefined) variables = null;
  if (variables !== null && (typeof variables !== "object" || Array.isArray(variables)))
    return failure(400, "Variables must be a JSON object");
  if (operationName != null && typeof operationName !== "string") return failure(400, "operationName must be a string");
  // Deeper variables would only exhaust the stack (coercion, the cache key) before any rule could refuse them.
  if (jsonDepth(variables) > MAX_NESTING)
    return failure(200, `Query or variables are nested more than ${MAX_NESTING} levels deep`);
  const vars = (variables ?? {}) as Record<string, unknown>;
  const opName = (operationName ?? undefined) as string | undefined;

  const prepared = prepare(query, shape, options.compileAfterUses ?? COMPILE_AFTER_USES);
  if ("errors" in prepared) return { status: 200, body: { errors: prepared.errors }, statements: 0 };
  const limitErrors = checkOmnigraphLimits(omnigraphSchema(), prepared.document, opName, vars, limits);
  if (limitErrors.length > 0)
    return { status: 200, body: { errors: limitErrors.map((e) => e.toJSON()) }, statements: 0 };

  const run = async () => {
    const ctx = new OmnigraphContext(options);
    let body: OmnigraphResponse["body"];
    const compiled = prepared.hot.compiledFor(omnigraphSchema(), opName, options.compileBudget);
    try {
      const result = compiled
        ? await executeCompiled(omnigraphSchema(), compiled, vars, ctx)
        : await execute({
            schema: omnigraphSchema(),
            document: prepared.document,
            variableValues: vars,
            operationName: opName,
            contextValue: ctx,
          });
      body = {};
      if (result.errors?.length) body.errors = result.errors.map((e) => format(e, options));
      if (result.data !== undefined) body.data = result.data;
    } catch (e) {
      body = { errors: [format(e, options)] };
    }
    const json = JSON.stringify(body);
    // Resolutions read the chains too: only answers from the index alone are kept for the head.
    return {
      status: statusOfErrors(body.errors),
      body,
      statements: ctx.statements,
      json,
      compiled: compiled !== undefined,
      cacheable: !body.errors && ctx.resolutions === 0,
    };
  };
  if (!options.cache) return run();
  let head: string | undefined;
  try {
    head = await options.cache.head();
  } catch (e) {
    if (!isDatabaseUnavailable(e)) (options.onError ?? console.error)(e);
  }
  if (head === undefined) return run();
  const key = `omnigraph\n${opName ?? ""}\n${stableJson(vars)}\n${prepared.normalized}`;
  const { result, outcome } = await options.cache.run(head, key, run);
  if ("body" in result) return { ...result, cache: outcome };
  return {
    status: 200,
    encoded: result.encoded,
    body: JSON.parse(result.encoded.toString("utf8")),
    statements: 0,
    cache: outcome,
  };
}

function format(e: unknown, options: OmnigraphOptions): GraphQLFormattedError {
  return formatExecutionError(e, options.onError ?? ((err) => console.error("[omnigraph]", err)));
}
