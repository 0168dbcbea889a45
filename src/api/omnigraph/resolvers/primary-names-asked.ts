import {
  type FieldNode,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  getArgumentValues,
  Kind,
  type SelectionSetNode,
} from "graphql";

/*
 * The `primaryName(by:)` and `primaryNames(where:)` fields a `ReverseResolve` selection asks, with their arguments
 * (variables applied): `ReverseResolve.trace` traces the resolutions those fields make, one level before they make
 * them.
 */

export type AskedPrimaryNames =
  | { field: "primaryName"; args: { by: Record<string, unknown> } }
  | { field: "primaryNames"; args: { where: Record<string, unknown> } };

const FIELDS = new Set(["primaryName", "primaryNames"]);

function collect(set: SelectionSetNode | undefined, info: GraphQLResolveInfo, out: FieldNode[]): void {
  for (const sel of set?.selections ?? []) {
    if (sel.kind === Kind.FIELD) {
      if (FIELDS.has(sel.name.value)) out.push(sel);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      collect(sel.selectionSet, info, out);
    } else {
      collect(info.fragments[sel.name.value]?.selectionSet, info, out);
    }
  }
}

/** What the selection of the field `info` resolves (a `ReverseResolve`) asks of primary names. */
export function askedPrimaryNames(info: GraphQLResolveInfo): AskedPrimaryNames[] {
  const nodes: FieldNode[] = [];
  for (const node of info.fieldNodes) collect(node.selectionSet, info, nodes);
  const type = info.schema.getType("ReverseResolve") as GraphQLObjectType;
  return nodes.map((node) => {
    const field = node.name.value as AskedPrimaryNames["field"];
    return { field, args: getArgumentValues(type.getFields()[field]!, node, info.variableValues) } as AskedPrimaryNames;
  });
}
