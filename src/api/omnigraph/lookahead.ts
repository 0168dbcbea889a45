import { type FieldNode, type GraphQLResolveInfo, Kind, type SelectionSetNode } from "graphql";

/*
 * What a field's selection goes on to ask, read before its rows are fetched, so the statement that fetches them can
 * bring what the next level would otherwise fetch in a statement of its own (a domain's registration). A guess either
 * way costs statements, never answers: what the row did not bring is loaded as before.
 */

type Fragments = GraphQLResolveInfo["fragments"];

/** Whether a selection reaches, along `path` (field names; fragments and type conditions looked through), one of `leaves`. */
function reaches(
  set: SelectionSetNode | undefined,
  path: readonly string[],
  leaves: readonly string[],
  fragments: Fragments,
): boolean {
  if (!set) return false;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      if (path.length === 0 ? leaves.includes(sel.name.value) : sel.name.value === path[0]) {
        if (path.length === 0 || reaches(sel.selectionSet, path.slice(1), leaves, fragments)) return true;
      }
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      if (reaches(sel.selectionSet, path, leaves, fragments)) return true;
    } else {
      const fragment = fragments[sel.name.value];
      if (fragment && reaches(fragment.selectionSet, path, leaves, fragments)) return true;
    }
  }
  return false;
}

const REGISTRATION_FIELDS = ["registration", "registrations"] as const;
const IN_CONNECTION = ["edges", "node"] as const;
const HERE: readonly string[] = [];

/** Per field node of a (cached, so long-lived) document: the answer for a field asked once under its name. */
const asked = { here: new WeakMap<FieldNode, boolean>(), nodes: new WeakMap<FieldNode, boolean>() };

function asks(info: GraphQLResolveInfo, path: readonly string[], memo: WeakMap<FieldNode, boolean>): boolean {
  const nodes = info.fieldNodes;
  const only = nodes.length === 1 ? nodes[0]! : undefined;
  const known = only && memo.get(only);
  if (known !== undefined) return known;
  const answer = nodes.some((n) => reaches(n.selectionSet, path, REGISTRATION_FIELDS, info.fragments));
  if (only) memo.set(only, answer);
  return answer;
}

/** Whether a domain field (`domain(by:)`) selects the domain's `registration` or `registrations`. */
export const asksRegistration = (info: GraphQLResolveInfo | undefined) =>
  info !== undefined && asks(info, HERE, asked.here);

/** Whether a domain connection selects its nodes' `registration` or `registrations` (`edges { node { … } }`). */
export const asksNodesRegistration = (info: GraphQLResolveInfo | undefined) =>
  info !== undefined && asks(info, IN_CONNECTION, asked.nodes);
