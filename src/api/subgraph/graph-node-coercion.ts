import {
  type DocumentNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  Kind,
  type NamedTypeNode,
  NoUnusedFragmentsRule,
  NoUnusedVariablesRule,
  type OperationDefinitionNode,
  TypeInfo,
  type TypeNode,
  visit,
  visitWithTypeInfo,
} from "graphql";

/*
 * graph-node does not run the GraphQL specification's validation by default (ENABLE_GRAPHQL_VALIDATIONS is off): it
 * coerces each argument's value, variables substituted, to the argument's type (graph-node graphql/src/values/
 * coercion.rs). So queries that graphql-js refuses work on The Graph, and dApps written against it send them:
 * `$labelhash: String!` where a `Bytes` is expected (ENSNode's own example queries), `$now: Int` for a `BigInt`,
 * `orderDirection: "desc"` as a string, a variable or fragment declared and not used. This module rewrites such a
 * document into the one graph-node effectively runs, so graphql-js validates and coerces it the same way: the value
 * is still checked, by the type of the position it is used in (a String variable in a Bytes position must be hex).
 */

/** Validation rules for the specification's checks that graph-node does not make. */
export const RULES_GRAPH_NODE_SKIPS = [NoUnusedVariablesRule, NoUnusedFragmentsRule];

/**
 * Declared variable type → the position types graph-node coerces its value into, and whose own parsing the value must
 * then pass (a String as Bytes must be hex). The other way round (a Bytes, BigInt or ID variable in a String or ID
 * position) needs no retyping: those values already are strings, and LenientVariablesInAllowedPositionRule admits them.
 */
const RETYPE_INTO: Record<string, (position: GraphQLNamedType) => boolean> = {
  String: (p) => ["ID", "Bytes", "BigInt"].includes(p.name) || isEnumType(p),
  ID: (p) => ["Bytes", "BigInt"].includes(p.name) || isEnumType(p),
  Int: (p) => ["ID", "BigInt"].includes(p.name),
};

/**
 * The document graph-node would run: string literals in enum positions become enum values, and each variable used
 * only in positions of one other type that graph-node coerces its declared type into is declared with that type.
 * Anything else is left for validation to report.
 */
export function asGraphNodeCoerces(schema: GraphQLSchema, document: DocumentNode): DocumentNode {
  const typeInfo = new TypeInfo(schema);
  const positions = new Map<string, Set<GraphQLNamedType>>();
  const withEnums = visit(
    document,
    visitWithTypeInfo(typeInfo, {
      StringValue(node) {
        const expected = typeInfo.getInputType();
        const named = expected && getNamedType(expected);
        if (named && isEnumType(named) && named.getValue(node.value)) return { kind: Kind.ENUM, value: node.value };
        return undefined;
      },
      Variable(node, _key, parent) {
        // A definition's own `$name` is not a use of it.
        if (parent && "kind" in parent && parent.kind === Kind.VARIABLE_DEFINITION) return;
        const expected = typeInfo.getInputType();
        if (!expected) return;
        const name = node.name.value;
        positions.set(name, (positions.get(name) ?? new Set()).add(getNamedType(expected)));
      },
    }),
  );
  return visit(withEnums, {
    OperationDefinition(operation: OperationDefinitionNode) {
      let changed = false;
      const variableDefinitions = operation.variableDefinitions?.map((definition) => {
        const used = positions.get(definition.variable.name.value);
        if (!used || used.size !== 1) return definition;
        const [position] = used;
        const declared = namedTypeOf(definition.type).name.value;
        if (declared === position!.name || !RETYPE_INTO[declared]?.(position!)) return definition;
        changed = true;
        const { defaultValue } = definition;
        const enumDefault =
          defaultValue?.kind === Kind.STRING && isEnumType(position) && position.getValue(defaultValue.value);
        return {
          ...definition,
          type: renamed(definition.type, position!.name),
          defaultValue: enumDefault ? { kind: Kind.ENUM, value: defaultValue.value } : defaultValue,
        };
      });
      return changed ? { ...operation, variableDefinitions } : undefined;
    },
  });
}

function namedTypeOf(type: TypeNode): NamedTypeNode {
  return type.kind === Kind.NAMED_TYPE ? type : namedTypeOf(type.type);
}

/** `type` with its named type replaced, its list and non-null wrappers kept. */
function renamed(type: TypeNode, name: string): TypeNode {
  if (type.kind === Kind.NAMED_TYPE) return { ...type, name: { ...type.name, value: name } };
  if (type.kind === Kind.LIST_TYPE) return { ...type, type: renamed(type.type, name) };
  return { ...type, type: renamed(type.type, name) as NamedTypeNode };
}
