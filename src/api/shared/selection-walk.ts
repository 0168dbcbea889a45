import {
  type DocumentNode,
  type FieldNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";

/** The operation a request runs: the one named, else the document's first (execution reports a missing one). */
export function operationOf(
  document: DocumentNode,
  operationName: string | null | undefined,
): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  return operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
}

/** Walks on into a field's selection, as `type`, at `depth` levels and `multiplicity` rows per answer. */
export type WalkInto = (set: SelectionSetNode, type: GraphQLNamedType, depth: number, multiplicity: number) => void;

/** Called for each field the walk reaches; it counts what its endpoint limits and calls `into` to go deeper. */
export type FieldVisitor = (
  node: FieldNode,
  parent: GraphQLNamedType,
  depth: number,
  multiplicity: number,
  into: WalkInto,
) => void;

export interface WalkBounds {
  /** Selections visited at most: fragments spread in fragments describe a huge tree in a small document. */
  maxVisits: number;
  maxDepth: number;
  /** Stops the walk once the endpoint has seen enough (a limit already passed). */
  stop?: () => boolean;
}

/**
 * The limit checks of both GraphQL endpoints walk a query the same way before it runs: from the query type through
 * every field, looking through inline fragments and fragment spreads (a fragment spread inside itself is skipped:
 * validation reports the cycle). Returns the selections visited; more than `maxVisits` means the walk gave up.
 */
export function walkQuery(
  document: DocumentNode,
  operation: OperationDefinitionNode,
  schema: GraphQLSchema,
  visit: FieldVisitor,
  bounds: WalkBounds,
): number {
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])),
  );
  let visits = 0;
  const walk = (
    set: SelectionSetNode,
    parent: GraphQLNamedType,
    depth: number,
    multiplicity: number,
    seen: Set<string>,
  ): void => {
    const into: WalkInto = (s, type, d, m) => walk(s, type, d, m, seen);
    for (const sel of set.selections) {
      if (++visits > bounds.maxVisits || depth > bounds.maxDepth || bounds.stop?.()) return;
      if (sel.kind === Kind.FRAGMENT_SPREAD) {
        const frag = fragments.get(sel.name.value);
        if (!frag || seen.has(frag.name.value)) continue;
        const type = schema.getType(frag.typeCondition.name.value) ?? parent;
        walk(frag.selectionSet, type, depth, multiplicity, new Set([...seen, frag.name.value]));
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const type = sel.typeCondition ? (schema.getType(sel.typeCondition.name.value) ?? parent) : parent;
        walk(sel.selectionSet, type, depth, multiplicity, seen);
      } else visit(sel, parent, depth, multiplicity, into);
    }
  };
  const root = schema.getQueryType();
  if (root && operation.operation === "query") walk(operation.selectionSet, root, 0, 1, new Set());
  return visits;
}
