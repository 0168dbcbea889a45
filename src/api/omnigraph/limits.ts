import {
  type DocumentNode,
  type FieldNode,
  GraphQLError,
  type GraphQLSchema,
  getNamedType,
  isInterfaceType,
  isObjectType,
  Kind,
  type ValueNode,
} from "graphql";
import type { ShapeLimits } from "../shared/document-shape";
import { type FieldVisitor, operationOf, walkQuery } from "../shared/selection-walk";

/*
 * Every limit of /api/omnigraph, in one place (docs/api.md lists them). Most are /subgraph's (its limits.ts) applied
 * to Relay connections; the page size is the peer's published maximum. Checked in this order:
 *   transport: POST body bytes (413), query bytes, parse tokens;
 *   shape (before validation, /subgraph's checkDocumentShape): aliases, fields, operations, directives;
 *   this file's walk (after validation, before any SQL): depth in object levels, aliases, entities (each
 *     connection's `first`/`last`, default 100, times its parents' count), resolution fields in the document;
 *   during execution: names and addresses actually resolved (records, profile, primary names read per name).
 */

/** The peer's maximum `first`/`last`; 100 when neither is given. */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

/** A POST body larger than this is refused with 413 while it arrives (as /subgraph's). */
export const MAX_BODY_BYTES = 256 * 1024;
/** graphql-js's parser stops after this many tokens. */
export const MAX_PARSE_TOKENS = 10_000;

/** Checked on the parsed document, before validation: /subgraph's numbers. */
export const SHAPE_LIMITS: ShapeLimits & { maxQueryBytes: number } = {
  maxAliases: 30,
  maxFields: 1000,
  maxOperations: 20,
  maxDirectives: 50,
  maxQueryBytes: 20 * 1024,
};

/**
 * The most rows `totalCount` of a filtered domain list (a name, prefix or canonical filter) or of `Account.nameReferences`
 * counts per list: a larger count is an error on that field, not a statement that reads a whole large list.
 * Unfiltered domain lists' counts are kept by the indexer and have no limit.
 */
export const MAX_FILTERED_COUNT = 10_000;

/** Names or addresses one request may resolve while it runs: each costs several statements or RPC calls. */
export const MAX_RESOLUTIONS_PER_REQUEST = 50;
/** Text keys or coin types one `records` selection may ask for. */
export const MAX_RECORD_KEYS = 20;

/**
 * Resolution fields (ForwardResolve's `records`/`profile`, ReverseResolve's `primaryName`/`primaryNames`) one
 * document may select, counted after fragments are expanded: each is a separate read of the resolution backend.
 */
const RESOLUTION_FIELDS: Readonly<Record<string, readonly string[]>> = {
  ForwardResolve: ["records", "profile"],
  ReverseResolve: ["primaryName", "primaryNames"],
};

export interface OmnigraphLimits {
  maxDepth: number;
  maxAliases: number;
  maxRows: number;
  maxResolutionFields: number;
}

export const DEFAULT_OMNIGRAPH_LIMITS: OmnigraphLimits = {
  maxDepth: 12,
  maxAliases: 30,
  maxRows: 100_000,
  maxResolutionFields: 50,
};

function intArg(node: FieldNode, name: string, vars: Record<string, unknown>): number | undefined {
  const value: ValueNode | undefined = node.arguments?.find((a) => a.name.value === name)?.value;
  if (!value) return undefined;
  if (value.kind === Kind.VARIABLE)
    return typeof vars[value.name.value] === "number" ? (vars[value.name.value] as number) : undefined;
  return value.kind === Kind.INT ? Number(value.value) : undefined;
}

export function checkOmnigraphLimits(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  vars: Record<string, unknown>,
  limits: OmnigraphLimits,
): GraphQLError[] {
  const operation = operationOf(document, operationName);
  if (!operation || operation.operation !== "query") return [];
  let maxDepthSeen = 0;
  let aliases = 0;
  let rows = 0;
  let resolutionFields = 0;
  const errors = new Set<string>();

  const field: FieldVisitor = (sel, parent, depth, multiplicity, into) => {
    if (sel.alias) aliases++;
    if (RESOLUTION_FIELDS[parent.name]?.includes(sel.name.value)) resolutionFields++;
    if (sel.name.value.startsWith("__") || !sel.selectionSet) return;
    const def = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[sel.name.value] : undefined;
    if (!def) return;
    const type = getNamedType(def.type);
    const d = depth + 1;
    maxDepthSeen = Math.max(maxDepthSeen, d);
    let m = multiplicity;
    if (type.name.endsWith("Connection")) {
      const size = intArg(sel, "first", vars) ?? intArg(sel, "last", vars) ?? DEFAULT_PAGE_SIZE;
      if (size < 0 || size > MAX_PAGE_SIZE)
        errors.add(`\`first\`/\`last\` must be between 0 and ${MAX_PAGE_SIZE}, but is ${size}`);
      m = multiplicity * Math.max(0, Math.min(size, MAX_PAGE_SIZE));
    }
    rows += m;
    into(sel.selectionSet, type, d, m);
  };
  const visits = walkQuery(document, operation, schema, field, {
    maxVisits: 10_000,
    maxDepth: limits.maxDepth,
    stop: () => rows > limits.maxRows,
  });
  const out = [...errors].map((m) => new GraphQLError(m));
  if (visits > 10_000) out.push(new GraphQLError("Query is too complex: it expands to too many fields"));
  if (maxDepthSeen > limits.maxDepth)
    out.push(new GraphQLError(`Query is too deep: ${maxDepthSeen} levels, the limit is ${limits.maxDepth}`));
  if (aliases > limits.maxAliases)
    out.push(new GraphQLError(`Query uses ${aliases} aliases, the limit is ${limits.maxAliases}`));
  if (resolutionFields > limits.maxResolutionFields) {
    out.push(
      new GraphQLError(
        `Query selects ${resolutionFields} resolution fields (records, profile, primaryName, primaryNames), the limit is ${limits.maxResolutionFields}`,
      ),
    );
  }
  if (rows > limits.maxRows) {
    out.push(
      new GraphQLError(
        `Query could return more than ${limits.maxRows} entities (each connection's page size times its parents'); ask for fewer`,
      ),
    );
  }
  return out;
}
