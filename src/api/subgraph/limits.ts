import {
  type ASTVisitor,
  type DocumentNode,
  GraphQLError,
  type GraphQLField,
  GraphQLList,
  type GraphQLNamedType,
  type GraphQLSchema,
  type GraphQLType,
  getNamedType,
  getNullableType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  typeFromAST,
  type ValidationContext,
  type ValueNode,
  type VariableDefinitionNode,
} from "graphql";
import type { ShapeLimits } from "../shared/document-shape";
import { type FieldVisitor, operationOf, walkQuery } from "../shared/selection-walk";
import { blockInputErrors } from "./block-input";

/*
 * Every limit of /subgraph, in one place: what a request may ask (DEFAULT_LIMITS, overridable per app), how deep its
 * text may nest, how many entries each in-process cache keeps, and how many values one SQL statement binds.
 */

/** Page bounds of a list field (`first`, `skip`), read by the schema's resolvers. */
export interface SubgraphLimits {
  maxFirst: number;
  maxSkip: number;
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

/** Tokens graphql-js's parser reads before it gives up: far beyond any real query, far below a stack-exhausting one. */
export const MAX_PARSE_TOKENS = 10_000;

/** Validation stops after this many errors: listing a thousand unknown fields (with suggestions) is wasted work. */
export const MAX_VALIDATION_ERRORS = 10;

/** Query texts whose parsed and validated document is kept (caches.ts preparedDocuments). */
export const PREPARED_DOCUMENTS_MAX = 500;

/** Introspection answers kept (caches.ts introspectionAnswers). */
export const INTROSPECTION_ANSWERS_MAX = 20;

/** Values in one `_in` / list filter: keeps a statement far below PostgreSQL's 65,535 parameters. */
export const MAX_LIST_VALUES = 1000;

/** Parent ids per statement of the Loader; bounded so a statement's parameter list stays far below 65,535. */
export const IDS_PER_STATEMENT = 1000;

/**
 * What /subgraph asks the operator's RPC provider for blocks the index does not hold (chain-blocks.ts), per process:
 * a bucket of `burst` requests refilled at `perSecond` (so at most burst + perSecond * t requests in any t seconds),
 * each with no retry and this timeout. The burst is the aliases a request may have, so one query naming that many
 * blocks is served when nothing else asked.
 */
export const BLOCK_RPC = { perSecond: 5, burst: 30, timeoutMs: 3_000 };

/** Blocks kept by meta.ts's block lookup: final ones by number and by hash, and answers per head (also "none"). */
export const BLOCK_ANSWERS_MAX = 1000;

/**
 * A body over maxBodyBytes but at most this large is read to its end and thrown away, so the connection stays
 * usable and a client still writing reads the 413 instead of a reset; a larger one closes the connection.
 */
export function discardableBodyBytes(maxBodyBytes: number): number {
  return Math.max(maxBodyBytes * 4, 4 * 1024 * 1024);
}

/*
 * Protections applied after parsing and before execution: query depth, aliases and an estimate of the rows a query
 * can ask for (each list's `first` times its parents' count), so that one request cannot make the database return
 * millions of rows.
 */

export interface DocumentLimits extends ShapeLimits {
  maxDepth: number;
  maxRows: number;
  maxFirst: number;
  maxSkip: number;
}

type Vars = Record<string, unknown>;

function argValue(node: ValueNode | undefined, vars: Vars): unknown {
  if (!node) return undefined;
  if (node.kind === Kind.VARIABLE) return vars[node.name.value];
  if (node.kind === Kind.INT) return Number(node.value);
  if (node.kind === Kind.NULL) return null;
  return undefined;
}

export function checkDocumentLimits(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Vars,
  limits: DocumentLimits,
): GraphQLError[] {
  const operation = operationOf(document, operationName);
  if (!operation) return []; // execute() reports the missing operation

  let aliases = 0;
  let maxDepthSeen = 0;
  let rows = 0;
  let overflow = false;
  // 10x the fields a document may write; a fragment bomb stops here after a few milliseconds.
  const MAX_VISITS = 10_000;
  // `first`/`skip` out of range, reported before any SQL runs (as The Graph does), with The Graph's wording.
  const rangeErrors = new Set<string>();
  // A `block:` or `_change_block` no block can have, reported before any block is looked up (block-input.ts).
  const blockErrors = new Set<string>();

  const field: FieldVisitor = (node, parent, depth, multiplicity, into) => {
    if (node.alias) aliases++;
    const name = node.name.value;
    if (name.startsWith("__")) return; // introspection is cheap and static
    for (const e of blockInputErrors(node, variables)) blockErrors.add(e);
    // Depth counts levels of objects: `{ domains { id } }` is 1 deep.
    if (!node.selectionSet) return;
    const d = depth + 1;
    if (d > maxDepthSeen) maxDepthSeen = d;
    let def: GraphQLField<unknown, unknown> | undefined;
    if (isObjectType(parent) || isInterfaceType(parent)) def = parent.getFields()[name];
    if (!def) return; // unknown fields are reported by validation
    let m = multiplicity;
    if (isListType(getNullableType(def.type) as GraphQLType)) {
      const firstArg = node.arguments?.find((a) => a.name.value === "first");
      const first = argValue(firstArg?.value, variables);
      const skip = argValue(node.arguments?.find((a) => a.name.value === "skip")?.value, variables);
      if (typeof first === "number" && (first < 0 || first > limits.maxFirst)) {
        rangeErrors.add(`The \`first\` argument must be between 0 and ${limits.maxFirst}, but is ${first}`);
      }
      if (typeof skip === "number" && (skip < 0 || skip > limits.maxSkip)) {
        rangeErrors.add(`The \`skip\` argument must be between 0 and ${limits.maxSkip}, but is ${skip}`);
      }
      m = multiplicity * (typeof first === "number" && first >= 0 ? first : 100);
      rows += m;
      if (rows > limits.maxRows) overflow = true;
    } else {
      rows += multiplicity;
    }
    if (!overflow) into(node.selectionSet, getNamedType(def.type), d, m);
  };
  const visits = walkQuery(document, operation, schema, field, { maxVisits: MAX_VISITS, maxDepth: limits.maxDepth });

  const errors: GraphQLError[] = [...rangeErrors, ...blockErrors].map((m) => new GraphQLError(m));
  if (visits > MAX_VISITS) errors.push(new GraphQLError("Query is too complex: it expands to too many fields"));
  if (maxDepthSeen > limits.maxDepth) {
    errors.push(new GraphQLError(`Query is too deep: ${maxDepthSeen} levels, the limit is ${limits.maxDepth}`));
  }
  if (aliases > limits.maxAliases) {
    errors.push(new GraphQLError(`Query uses ${aliases} aliases, the limit is ${limits.maxAliases}`));
  }
  if (overflow) {
    errors.push(
      new GraphQLError(
        `Query could return more than ${limits.maxRows} entities (each list's \`first\` times the number of its parents); ask for fewer`,
      ),
    );
  }
  return errors;
}

/**
 * graphql-js's VariablesInAllowedPositionRule, except that a `String`, `ID`, `Bytes` or `BigInt` variable may stand in
 * a `String` or `ID` position: The Graph accepts `$id: String!` for an `id: ID!` argument (real clients, ensjs, rely
 * on it), and all four are strings once parsed. Variables that must be parsed as their position's type are declared
 * with it beforehand (graph-node-coercion.ts).
 */
export function LenientVariablesInAllowedPositionRule(context: ValidationContext): ASTVisitor {
  let defs = new Map<string, VariableDefinitionNode>();
  return {
    OperationDefinition: {
      enter() {
        defs = new Map();
      },
      leave(operation) {
        for (const { node, type, defaultValue } of context.getRecursiveVariableUsages(operation)) {
          const def = defs.get(node.name.value);
          if (!def || !type) continue;
          const varType = typeFromAST(context.getSchema(), def.type);
          if (!varType) continue;
          let loc: GraphQLType = type;
          const v: GraphQLType = varType;
          if (isNonNullType(loc) && !isNonNullType(v)) {
            const hasDefault = (def.defaultValue && def.defaultValue.kind !== Kind.NULL) || defaultValue !== undefined;
            if (!hasDefault) {
              report(context, def, node.name.value, varType, type);
              continue;
            }
            loc = loc.ofType;
          }
          if (!compatible(v, loc)) report(context, def, node.name.value, varType, type);
        }
      },
    },
    VariableDefinition(node) {
      defs.set(node.variable.name.value, node);
    },
  };
}

function report(
  context: ValidationContext,
  def: VariableDefinitionNode,
  name: string,
  varType: GraphQLType,
  locType: GraphQLType,
) {
  context.reportError(
    new GraphQLError(
      `Variable "$${name}" of type "${String(varType)}" used in position expecting type "${String(locType)}".`,
      { nodes: [def] },
    ),
  );
}

function compatible(v: GraphQLType, loc: GraphQLType): boolean {
  if (isNonNullType(loc)) return isNonNullType(v) && compatible(v.ofType, loc.ofType);
  if (isNonNullType(v)) return compatible(v.ofType, loc);
  if (loc instanceof GraphQLList) return v instanceof GraphQLList && compatible(v.ofType, loc.ofType);
  if (v instanceof GraphQLList) return false;
  const a = (v as GraphQLNamedType).name;
  const b = (loc as GraphQLNamedType).name;
  return a === b || (["ID", "String"].includes(b) && ["ID", "String", "Bytes", "BigInt"].includes(a));
}
