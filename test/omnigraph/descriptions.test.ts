import { getIntrospectionQuery, graphqlSync, type IntrospectionQuery } from "graphql";
import { describe, expect, it } from "vitest";
import { omnigraphSchema } from "../../src/api/omnigraph";

/*
 * Every type, field, input field and argument of the Omnigraph has a description (GraphiQL's docs show them), read
 * as a client reads them: through introspection of the schema the endpoint serves.
 */

const introspect = (): IntrospectionQuery => {
  const result = graphqlSync({ schema: omnigraphSchema(), source: getIntrospectionQuery() });
  expect(result.errors).toBeUndefined();
  return result.data as unknown as IntrospectionQuery;
};

describe("/api/omnigraph schema descriptions", () => {
  it("describes every type, field, input field, argument and enum value", () => {
    const missing: string[] = [];
    const described = (what: string, text: string | null | undefined) => {
      if (!text?.trim()) missing.push(what);
    };
    const types = introspect().__schema.types.filter((t) => !t.name.startsWith("__"));
    const builtIn = new Set(["String", "Boolean", "Int", "Float", "ID"]);
    for (const type of types) {
      if (builtIn.has(type.name)) continue;
      described(type.name, type.description);
      if (type.kind === "OBJECT" || type.kind === "INTERFACE") {
        for (const field of type.fields) {
          described(`${type.name}.${field.name}`, field.description);
          for (const arg of field.args) described(`${type.name}.${field.name}(${arg.name})`, arg.description);
        }
      }
      if (type.kind === "INPUT_OBJECT") {
        for (const field of type.inputFields) described(`${type.name}.${field.name}`, field.description);
      }
      if (type.kind === "ENUM") {
        for (const value of type.enumValues) described(`${type.name}.${value.name}`, value.description);
      }
    }
    expect(missing).toEqual([]);
    // Not a pass by walking nothing: the schema is large.
    expect(types.length).toBeGreaterThan(150);
  });

  it("gives an implementation's shared fields its interface's description, and its own fields their own", () => {
    const schema = omnigraphSchema();
    const field = (type: string, name: string) =>
      (schema.getType(type) as unknown as { getFields(): Record<string, { description?: string | null }> }).getFields()[
        name
      ]?.description;
    expect(field("ENSv1Domain", "owner")).toBe(field("Domain", "owner"));
    expect(field("ENSv1Domain", "node")).not.toBe(field("ENSv1Domain", "owner"));
    expect(field("ENSv2Domain", "tokenId")).toMatch(/token/);
  });
});
