import {
  type DocumentNode,
  type FieldNode,
  GraphQLError,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from "graphql";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "./cursor";

/*
 * Limits checked before execution, /subgraph's (limits.ts there) applied to Relay connections: depth in object
 * levels, aliases, and the entities a query could return, each connection's `first`/`last` (default 100) times its
 * parents' count. Page sizes over the peer's maximum (1000) are refused here, before any SQL runs.
 */

export interface OmnigraphLimits {
  maxDepth: number;
  maxAliases: number;
  maxRows: number;
}

export const DEFAULT_OMNIGRAPH_LIMITS: OmnigraphLimits = { maxDepth: 12, maxAliases: 30, maxRows: 100_000 };

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
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
  if (!operation || operation.operation !== "query") return [];
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])),
  );
  let maxDepthSeen = 0;
  let aliases = 0;
  let rows = 0;
  let visits = 0;
  const errors = new Set<string>();

  const walk = (
    set: SelectionSetNode,
    parent: GraphQLNamedType,
    depth: number,
    multiplicity: number,
    seen: Set<string>,
  ): void => {
    for (const sel of set.selections) {
      if (++visits > 10_000 || depth > limits.maxDepth || rows > limits.maxRows) return;
      if (sel.kind === Kind.FRAGMENT_SPREAD) {
        const frag = fragments.get(sel.name.value);
        if (!frag || seen.has(frag.name.value)) continue;
        walk(
          frag.selectionSet,
          schema.getType(frag.typeCondition.name.value) ?? parent,
          depth,
          multiplicity,
          new Set([...seen, frag.name.value]),
        );
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        walk(
          sel.selectionSet,
          sel.typeCondition ? (schema.getType(sel.typeCondition.name.value) ?? parent) : parent,
          depth,
          multiplicity,
          seen,
        );
      } else {
        if (sel.alias) aliases++;
        if (sel.name.value.startsWith("__") || !sel.selectionSet) continue;
        const def = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[sel.name.value] : undefined;
        if (!def) continue;
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
        walk(sel.selectionSet, type, d, m, seen);
      }
    }
  };
  const root = schema.getQueryType();
  if (root) walk(operation.selectionSet, root, 0, 1, new Set());
  const out = [...errors].map((m) => new GraphQLError(m));
  if (visits > 10_000) out.push(new GraphQLError("Query is too complex: it expands to too many fields"));
  if (maxDepthSeen > limits.maxDepth)
    out.push(new GraphQLError(`Query is too deep: ${maxDepthSeen} levels, the limit is ${limits.maxDepth}`));
  if (aliases > limits.maxAliases)
    out.push(new GraphQLError(`Query uses ${aliases} aliases, the limit is ${limits.maxAliases}`));
  if (rows > limits.maxRows) {
    out.push(
      new GraphQLError(
        `Query could return more than ${limits.maxRows} entities (each connection's page size times its parents'); ask for fewer`,
      ),
    );
  }
  return out;
}
