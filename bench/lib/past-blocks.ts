/*
 * Past blocks for the benches of /subgraph at a block: what changed after a block (`_change_block`), the newest block
 * after which at least n domains changed, and a request rewritten to ask at a block.
 */
import { Kind, parse, print, visit } from "graphql";

const CHANGE_KINDS = ["domains", "accounts", "resolvers", "registrations", "wrappedDomains"];

/** How many entities of each kind changed after `block` (`_change_block`), counted up to 1,000 each. */
export async function changesAfter(url: string, block: number): Promise<Record<string, number>> {
  const query = `{ ${CHANGE_KINDS.map((k) => `${k}(first: 1000, where: { _change_block: { number_gte: ${block + 1} } }) { id }`).join(" ")} }`;
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query }),
  });
  const { data } = (await response.json()) as { data: Record<string, unknown[]> };
  return Object.fromEntries(CHANGE_KINDS.map((k) => [k, data[k]!.length]));
}

export async function changedSince(url: string, block: number): Promise<string> {
  const changes = await changesAfter(url, block);
  return `${CHANGE_KINDS.map((k) => `${changes[k] === 1000 ? "≥1000" : changes[k]} ${k}`).join(", ")} changed since`;
}

/** The newest block after which at least `n` domains changed (a binary search below the head). */
export async function newestBlockWithChanges(url: string, head: number, n: number): Promise<number> {
  let [low, high] = [0, head]; // at `low` at least n changed since (or it is block 0); at `high`, fewer
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if ((await changesAfter(url, mid)).domains! >= n) low = mid;
    else high = mid;
  }
  return low;
}

/** A request body with `block: { number }` added to every root field of its query (`_meta` too). */
export function atBlock(body: string, number: number): string {
  const request = JSON.parse(body) as { query: string; variables: unknown };
  const document = visit(parse(request.query), {
    OperationDefinition(operation) {
      return {
        ...operation,
        selectionSet: {
          ...operation.selectionSet,
          selections: operation.selectionSet.selections.map((selection) =>
            selection.kind !== Kind.FIELD
              ? selection
              : {
                  ...selection,
                  arguments: [
                    ...(selection.arguments ?? []),
                    {
                      kind: Kind.ARGUMENT,
                      name: { kind: Kind.NAME, value: "block" },
                      value: {
                        kind: Kind.OBJECT,
                        fields: [
                          {
                            kind: Kind.OBJECT_FIELD,
                            name: { kind: Kind.NAME, value: "number" },
                            value: { kind: Kind.INT, value: String(number) },
                          },
                        ],
                      },
                    },
                  ],
                },
          ),
        },
      };
    },
  });
  return JSON.stringify({ ...request, query: print(document) });
}
