import {
  buildSchema,
  type GraphQLNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isUnionType,
  parse,
  validate,
} from "graphql";
import { describe, expect, it } from "vitest";
import { omnigraphSchema } from "../../src/api/omnigraph";
import { peerCookbook, peerSchemaSdl, skipWithoutPeerOmnigraph } from "../support/peer-omnigraph";

/*
 * Our Omnigraph schema against the peer's published SDL, read from ../shared/peer/omnigraph/ (test/support/
 * peer-omnigraph.ts; skipped, saying so, when that folder is absent): every type, field, argument (with its
 * type and default), enum value, input field and interface of theirs is ours too, so a query written for their
 * endpoint validates against ours; and every cookbook query validates unchanged.
 */

function signature(type: GraphQLNamedType): string[] {
  if (isObjectType(type) || isInterfaceType(type)) {
    const fields = Object.values(type.getFields()).map(
      (f) =>
        `${f.name}(${f.args.map((a) => `${a.name}: ${String(a.type)}${a.defaultValue !== undefined ? ` = ${JSON.stringify(a.defaultValue)}` : ""}`).join(", ")}): ${String(f.type)}`,
    );
    return [...fields, ...type.getInterfaces().map((i) => `implements ${i.name}`)];
  }
  if (isInputObjectType(type)) {
    return [
      ...Object.values(type.getFields()).map(
        (f) =>
          `${f.name}: ${String(f.type)}${f.defaultValue !== undefined ? ` = ${JSON.stringify(f.defaultValue)}` : ""}`,
      ),
      `oneOf: ${type.isOneOf}`,
    ];
  }
  if (isEnumType(type)) return type.getValues().map((v) => v.name);
  if (isUnionType(type)) return type.getTypes().map((t) => t.name);
  return [type.constructor.name];
}

describe.skipIf(skipWithoutPeerOmnigraph("the Omnigraph SDL compatibility tests"))(
  "/api/omnigraph schema compatibility with the peer's SDL",
  () => {
    const ours = omnigraphSchema();

    it("has every type of the peer's schema, of the same kind, with the same fields, arguments and values", () => {
      // Read in the test, not the describe's body: a skipped describe's body still runs, to collect its tests.
      const peer = buildSchema(peerSchemaSdl());
      const problems: string[] = [];
      for (const [name, theirs] of Object.entries(peer.getTypeMap())) {
        if (name.startsWith("__")) continue;
        const mine = ours.getType(name);
        if (!mine) {
          problems.push(`missing type ${name}`);
          continue;
        }
        const want = signature(theirs);
        const have = new Set(signature(mine));
        for (const line of want) if (!have.has(line)) problems.push(`${name}: missing or different: ${line}`);
      }
      expect(problems).toEqual([]);
      // Not a schema that passes by being empty: the peer's schema is large.
      expect(Object.keys(peer.getTypeMap()).length).toBeGreaterThan(150);
    });

    it("validates every query of the peer's cookbook unchanged", () => {
      const cookbook = peerCookbook();
      expect(cookbook.length).toBeGreaterThan(15);
      for (const example of cookbook) {
        const errors = validate(ours, parse(example.query));
        expect(
          errors.map((e) => e.message),
          example.id,
        ).toEqual([]);
      }
    });
  },
);
