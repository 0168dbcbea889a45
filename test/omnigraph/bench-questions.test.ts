import { type DocumentNode, Kind, parse, print, type SelectionSetNode, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { omnigraphQuestions } from "../../harness/omnigraph-questions";
import { peerCookbook, skipWithoutPeerOmnigraph } from "../../harness/peer-omnigraph";
import { buildFixture } from "../../harness/subgraph-fixture/fixture";
import { buildOmnigraphSchema } from "../../src/api/omnigraph/schema";

/*
 * `npm run bench:omnigraph` asks the peer's cookbook's own questions: each Omnigraph question that names a cookbook
 * query asks what that query asks, field for field and argument for argument, but for its `resolve` selections (the
 * bench's fixture has no chain), and nothing more; it validates against our schema, and its variables are the ones it
 * declares. Only the questions the cookbook does not ask name none.
 */

/** Every field of a document as a path of `alias:name(args)` steps (inline fragments as `...on Type`). */
function fieldPaths(document: DocumentNode): string[] {
  const out: string[] = [];
  const walk = (set: SelectionSetNode, prefix: string) => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.INLINE_FRAGMENT) {
        walk(sel.selectionSet, `${prefix}...on ${sel.typeCondition?.name.value ?? ""}/`);
      } else if (sel.kind === Kind.FIELD) {
        const args = (sel.arguments ?? [])
          .map((a) => `${a.name.value}: ${print(a.value)}`)
          .sort()
          .join(", ");
        const step = `${sel.alias ? `${sel.alias.value}:` : ""}${sel.name.value}${args ? `(${args})` : ""}`;
        out.push(prefix + step);
        if (sel.selectionSet) walk(sel.selectionSet, `${prefix}${step}/`);
      } else {
        throw new Error(`named fragment ${sel.name.value}: not expected in the cookbook`);
      }
    }
  };
  for (const d of document.definitions) if (d.kind === Kind.OPERATION_DEFINITION) walk(d.selectionSet, "");
  return out.sort();
}

const isResolution = (path: string) => path.split("/").some((step) => /^(\w+:)?resolve(\(|$)/.test(step));

describe.skipIf(skipWithoutPeerOmnigraph("bench:omnigraph's questions"))("bench:omnigraph's questions", () => {
  const questions = omnigraphQuestions(buildFixture({ secondLevel: 200, accounts: 8 }));
  const schema = buildOmnigraphSchema();

  it("are the cookbook's own queries without their resolution, valid with their variables", () => {
    const asked = questions.filter((q) => q.cookbookId !== undefined);
    expect(asked.length).toBeGreaterThan(0);
    for (const q of asked) {
      const example = peerCookbook().find((e) => e.id === q.cookbookId);
      expect(example, `${q.cookbookId} in the cookbook`).toBeDefined();
      const wanted = fieldPaths(parse(example!.query)).filter((p) => !isResolution(p));
      for (const raw of q.omnigraph.bodies.slice(0, 3)) {
        const { query, variables } = JSON.parse(raw) as { query: string; variables: Record<string, unknown> };
        const document = parse(query);
        expect(fieldPaths(document), `${q.name}: the fields of ${q.cookbookId}`).toEqual(wanted);
        expect(
          validate(schema, document).map((e) => e.message),
          q.name,
        ).toEqual([]);
        const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION)!;
        const declared = (
          operation.kind === Kind.OPERATION_DEFINITION ? (operation.variableDefinitions ?? []) : []
        ).map((v) => v.variable.name.value);
        expect(Object.keys(variables).sort(), `${q.name}: its variables`).toEqual([...declared].sort());
      }
    }
  });

  it("name a cookbook query but for the one the cookbook does not ask", () => {
    expect(questions.filter((q) => q.cookbookId === undefined).map((q) => q.name)).toEqual([
      "name references of the top owner",
    ]);
  });
});
