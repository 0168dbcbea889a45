import { type GraphQLField, GraphQLInterfaceType, GraphQLObjectType, type GraphQLSchema, getNamedType } from "graphql";

/*
 * Descriptions the SDL leaves out because they would repeat themselves: every connection and edge type says the same
 * (a page, an item of it), every paged field takes the same four arguments, `by`/`where`/`order` are told by their
 * input types, and an interface's implementations share its fields' meanings. Filled into the built schema, where a field has none of its own, so that introspection (and
 * GraphiQL's docs) shows a description for everything (test/omnigraph/descriptions.test.ts).
 */

const PAGING_ARGS: Record<string, string> = {
  first: "Up to this many items from the start of the list (or from `after`).",
  last: "Up to this many items from the end of the list (or from `before`).",
  after: "Only items after the one with this cursor (a page's `endCursor`).",
  before: "Only items before the one with this cursor (a page's `startCursor`).",
};

/** The arguments whose input type says it all: pointing at it is enough. */
const SELECTION_ARGS: Record<string, string> = {
  by: "Which one (give exactly one of the input's fields).",
  where: "Only the items that match every filter given.",
  order: "How to sort the list.",
};

const CONNECTION_FIELDS: Record<string, string> = {
  edges: "The page's items, each with its cursor.",
  pageInfo: "Where the page sits in the list, and the cursors to page on from it.",
  totalCount: "How many items the whole list holds, across all pages.",
};

const EDGE_FIELDS: Record<string, string> = {
  cursor: "This item's place in the list: pass it as `after` or `before` to page from here.",
  node: "The item.",
};

/** `Domain` for `DomainSubdomainsConnection`: the type of its edges' nodes. */
function itemTypeOf(connection: GraphQLObjectType): string | undefined {
  const edges = connection.getFields().edges;
  const edge = edges && getNamedType(edges.type);
  const node = edge instanceof GraphQLObjectType ? edge.getFields().node : undefined;
  return node && getNamedType(node.type).name;
}

function fill(field: GraphQLField<unknown, unknown>, description: string | null | undefined) {
  if (!field.description && description) field.description = description;
}

export function describeRepeatedParts(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith("__")) continue;
    if (!(type instanceof GraphQLObjectType) && !(type instanceof GraphQLInterfaceType)) continue;
    const fields = type.getFields();
    const item = type instanceof GraphQLObjectType ? itemTypeOf(type) : undefined;
    if (type.name.endsWith("ConnectionEdge") && fields.node) {
      type.description ??= `One ${getNamedType(fields.node.type).name} in a page, with its cursor.`;
      for (const field of Object.values(fields)) fill(field, EDGE_FIELDS[field.name]);
    } else if (type.name.endsWith("Connection") && item) {
      type.description ??= `A page of a list of ${item} items, with the list's size and the cursors to page through it.`;
      for (const field of Object.values(fields)) fill(field, CONNECTION_FIELDS[field.name]);
    }
    const interfaces = type.getInterfaces();
    for (const field of Object.values(fields)) {
      // An implementation's field means what its interface's does.
      for (const face of interfaces) {
        const shared = face.getFields()[field.name];
        if (!shared) continue;
        fill(field, shared.description);
        for (const arg of field.args) arg.description ||= shared.args.find((a) => a.name === arg.name)?.description;
      }
      const paged = getNamedType(field.type).name.endsWith("Connection");
      for (const arg of field.args) arg.description ||= (paged && PAGING_ARGS[arg.name]) || SELECTION_ARGS[arg.name];
    }
  }
}
