import { parse, validate } from "graphql";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESOLVER_ADDRESS } from "../../harness/subgraph-fixture/fixture";
import { createSubgraphApp, subgraphSchema } from "../../src/api/subgraph";
import { SUBGRAPH_EXAMPLES } from "../../src/api/subgraph/examples";
import { type Harness, startHarness } from "./harness";

/*
 * The HTTP surface: GET and POST, the playground for browsers, GraphQL errors with status 200, request errors
 * with 400, the protective limits, and no 5xx whatever the input.
 */

let h: Harness;
let app: Hono;

beforeAll(async () => {
  h = await startHarness(60);
  // Mounted as the API mounts it.
  app = new Hono();
  app.route("/subgraph", createSubgraphApp(h.options));
});
afterAll(async () => {
  expect(h.internalErrors.map(String)).toEqual([]);
  await h.close();
});

const post = (body: unknown, headers: Record<string, string> = { "content-type": "application/json" }) =>
  app.request("/subgraph", {
    method: "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

describe("requests", () => {
  it("POST JSON with variables and operationName", async () => {
    const res = await post({
      query: "query A { domains(first: 1) { id } } query B($n: String) { domains(where: { name: $n }) { name } }",
      variables: { n: "eth" },
      operationName: "B",
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(await res.json()).toEqual({ data: { domains: [{ name: "eth" }] } });
  });

  it("GET with ?query= and ?variables=", async () => {
    const q = encodeURIComponent("query($n: String) { domains(where: { name: $n }) { name } }");
    const v = encodeURIComponent(JSON.stringify({ n: "eth" }));
    const res = await app.request(`/subgraph?query=${q}&variables=${v}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { domains: [{ name: "eth" }] } });
  });

  it("a browser without a query gets the playground", async () => {
    const res = await app.request("/subgraph", { headers: { accept: "text/html,application/xhtml+xml" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain("<title>nameindex /subgraph</title>");
    // GraphiQL, its files from under /subgraph/ (the shared routes are tested in test/omnigraph/playground.test.ts).
    const links = [...html.matchAll(/(?:src|href)="(\/[^"]*)"/g)].map((m) => m[1]!);
    expect(links.length).toBe(4);
    for (const link of links) {
      expect(link).toMatch(/^\/subgraph\/playground\/assets\//);
      expect((await app.request(link)).status, link).toBe(200);
    }
    expect(html).not.toMatch(/\b(https?:)?\/\/[a-z0-9-]+\.[a-z]/i);
  });

  it("the playground's examples validate against the schema; the first needs no variables", () => {
    const schema = subgraphSchema();
    for (const example of SUBGRAPH_EXAMPLES) {
      expect(
        validate(schema, parse(example.query)).map((e) => e.message),
        example.title,
      ).toEqual([]);
    }
    expect(SUBGRAPH_EXAMPLES[0]!.variables).toBeUndefined();
  });

  it("GET without a query and without Accept: text/html is a 400 GraphQL-style error", async () => {
    const res = await app.request("/subgraph");
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].message).toMatch(/query/);
  });

  it("malformed JSON body → 400 with a GraphQL-style error body", async () => {
    for (const body of ["{", "not json", "[1,2]", "null", '"query"']) {
      const res = await post(body);
      expect(res.status).toBe(400);
      const json = await res.json();
      expect(json.errors[0].message).toEqual(expect.any(String));
    }
  });

  it("introspection works (for GraphiQL and codegen)", async () => {
    const res = await post({
      query: '{ __type(name: "Domain_filter") { inputFields { name } } __schema { queryType { name } } }',
    });
    const json = await res.json();
    const names = json.data.__type.inputFields.map((f: { name: string }) => f.name);
    for (const n of ["owner_", "parent_", "name_contains_nocase", "and", "or", "subdomains_", "expiryDate_gt"]) {
      expect(names).toContain(n);
    }
  });
});

describe("errors are GraphQL errors with status 200", () => {
  it.each([
    ["syntax error", "{ domains { id "],
    ["unknown field", "{ domains { nope } }"],
    ["unknown root field", "{ nope }"],
    ["unknown argument", "{ domains(limit: 3) { id } }"],
    ["wrong enum", "{ domains(orderBy: nope) { id } }"],
    ["missing selection", "{ domains }"],
    ["mutation", "mutation { x }"],
    ["subscription", "subscription { domains { id } }"],
    ["wrong variable type", "query($x: Boolean) { domain(id: $x) { id } }"],
    ["variable type The Graph does not coerce either", "query($x: Int) { domains(where: { name: $x }) { id } }"],
    ["missing required variable", "query($x: ID!) { domain(id: $x) { id } }"],
    ["unknown operationName", "query A { domains { id } }"],
  ])("%s", async (label, query) => {
    const res = await post({ query, operationName: label === "unknown operationName" ? "Nope" : undefined });
    expect(res.status).toBe(200);
    const json = await res.json();
    expect(json.errors.length).toBeGreaterThan(0);
    expect(json.errors[0].message).toEqual(expect.any(String));
  });

  it("String variables are accepted where The Graph takes an ID (ensjs sends $id: String!)", async () => {
    const res = await post({
      query: "query($id: String!) { domain(id: $id) { id } }",
      variables: { id: "0x93cdeb708b7545dc668eb9280176169d1c33cfd8ed6f04690a0bcc88a93fc4ae" },
    });
    expect((await res.json()).data.domain).not.toBeNull();
  });
});

describe("queries The Graph runs although the GraphQL specification's validation refuses them", () => {
  // graph-node skips that validation and coerces each value to its position's type (graph-node
  // graphql/src/values/coercion.rs); dApps written against it send these.
  const eth = () => h.rows.domain!.find((d) => d.name === "eth")!;
  const data = async (query: string, variables?: Record<string, unknown>) => {
    const json = await (await post({ query, variables })).json();
    expect(json.errors).toBeUndefined();
    return json.data;
  };

  it("a String variable where a Bytes is expected, compared as bytes (ENSNode's example query)", async () => {
    const labelhash = String(eth().labelhash);
    const query =
      "query($labelhash: String!) { domains(where: { labelhash: $labelhash, labelName_not: null }) { labelName } }";
    expect(await data(query, { labelhash: labelhash.toUpperCase().replace(/^0X/, "0x") })).toEqual({
      domains: [{ labelName: "eth" }],
    });
    const resolvers = await data("query($a: String!) { resolvers(first: 1000, where: { address: $a }) { address } }", {
      a: RESOLVER_ADDRESS,
    });
    expect(resolvers.resolvers.length).toBeGreaterThan(0);
    expect(new Set(resolvers.resolvers.map((r: { address: string }) => r.address))).toEqual(
      new Set([RESOLVER_ADDRESS]),
    );
  });

  it("the value is still checked by its position's type", async () => {
    const json = await (
      await post({
        query: "query($h: String!) { domains(where: { labelhash: $h }) { id } }",
        variables: { h: "not hex" },
      })
    ).json();
    expect(json.data).toBeUndefined();
    expect(json.errors[0].message).toMatch(/Invalid Bytes value: "not hex"/);
  });

  it("Int and String variables where a BigInt is expected", async () => {
    const expiring = h.rows.domain!.filter((d) => d.expiryDate !== null).map((d) => BigInt(d.expiryDate as bigint));
    expiring.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const middle = expiring[Math.floor(expiring.length / 2)]!;
    const later = expiring.filter((e) => e > middle).length;
    expect(later).toBeGreaterThan(0);
    const query = (type: string) => `query($t: ${type}) { domains(first: 1000, where: { expiryDate_gt: $t }) { id } }`;
    expect((await data(query("Int"), { t: Number(middle) })).domains).toHaveLength(later);
    expect((await data(query("String!"), { t: String(middle) })).domains).toHaveLength(later);
  });

  it("enum values written as strings, literally or in a String variable", async () => {
    const desc = await data('{ domains(first: 3, orderBy: "createdAt", orderDirection: "desc") { createdAt } }');
    const asEnum = await data("{ domains(first: 3, orderBy: createdAt, orderDirection: desc) { createdAt } }");
    expect(desc).toEqual(asEnum);
    expect(
      await data("query($d: String) { domains(first: 3, orderBy: createdAt, orderDirection: $d) { createdAt } }", {
        d: "desc",
      }),
    ).toEqual(asEnum);
    expect(
      await data(
        'query($d: String = "desc") { domains(first: 3, orderBy: createdAt, orderDirection: $d) { createdAt } }',
      ),
    ).toEqual(asEnum);
    const wrong = await (await post({ query: '{ domains(orderDirection: "sideways") { id } }' })).json();
    expect(wrong.errors[0].message).toMatch(/OrderDirection/);
  });

  it("a variable or fragment declared and not used", async () => {
    const query = 'query($unused: String) { domains(where: { name: "eth" }) { name } } fragment Spare on Domain { id }';
    expect(await data(query)).toEqual({ domains: [{ name: "eth" }] });
  });

  it("a variable used in positions of two types graph-node would read differently stays an error", async () => {
    const json = await (
      await post({
        query: "query($x: String!) { domains(where: { labelhash: $x, name: $x }) { id } }",
        variables: { x: "0x00" },
      })
    ).json();
    expect(json.errors[0].message).toMatch(/Variable "\$x" of type "String!" used in position expecting type "Bytes"/);
  });
});

describe("limits", () => {
  it("query depth", async () => {
    const deep =
      "{ domains(first: 1) { parent { parent { parent { parent { parent { parent { parent { parent { parent { parent { id } } } } } } } } } } } }";
    const json = await (await post({ query: deep })).json();
    expect(json.errors[0].message).toMatch(/too deep: 11 levels, the limit is 10/);
    const ok =
      "{ domains(first: 1) { parent { parent { parent { parent { parent { parent { parent { parent { id } } } } } } } } } }";
    expect((await (await post({ query: ok })).json()).errors).toBeUndefined();
  });

  it("aliases", async () => {
    const many = `{ ${Array.from({ length: 31 }, (_, i) => `a${i}: domains(first: 1) { id }`).join(" ")} }`;
    expect((await (await post({ query: many })).json()).errors[0].message).toMatch(/31 aliases, the limit is 30/);
  });

  it("query size", async () => {
    const big = `{ domains(first: 1) { id } } ${"#".repeat(21 * 1024)}`;
    const res = await post({ query: big });
    expect(res.status).toBe(200);
    expect((await res.json()).errors[0].message).toMatch(/too large/);
  });

  it("total requested rows", async () => {
    const q = "{ domains(first: 1000) { subdomains(first: 1000) { id } } }";
    const json = await (await post({ query: q })).json();
    expect(json.errors[0].message).toMatch(/more than 100000 entities/);
    // Variables count too.
    const v = await (
      await post({
        query: "query($n: Int) { domains(first: 1000) { subdomains(first: $n) { id } } }",
        variables: { n: 500 },
      })
    ).json();
    expect(v.errors[0].message).toMatch(/more than 100000/);
  });

  it("fragment cycles and deep fragments are caught", async () => {
    const cyc = "{ domains { ...A } } fragment A on Domain { parent { ...A } }";
    expect((await (await post({ query: cyc })).json()).errors[0].message).toMatch(/Cannot spread fragment/);
  });
});

describe("never a 5xx", () => {
  const junk: unknown[] = [
    {},
    { query: 42 },
    { query: "" },
    { query: "{ domains { id } }", variables: "not json" },
    { query: "{ domains { id } }", variables: [1] },
    { query: "{ domains { id } }", operationName: 7 },
    { query: "{ domains(where: { id_in: null }) { id } }" },
    { query: "{ domains(where: { and: null, or: [] }) { id } }" },
    { query: "{ domains(where: { owner_: null }) { id } }" },
    { query: '{ domains(where: { name: "\\u0000" }) { id } }' },
    { query: '{ domains(where: { name_contains: "\'; drop table domain; --" }) { id } }' },
    { query: "{ domains(first: 2147483648) { id } }" },
    { query: "{ domains(skip: 99999999999) { id } }" },
    {
      query:
        '{ domains(where: { createdAt_gt: "99999999999999999999999999999999999999999999999999999999999999999999999999999999999" }) { id } }',
    },
    { query: '{ domains(where: { labelhash_in: ["0x", "0xABC"] }) { id } }' },
    { query: "{ domains(orderBy: parent__name, orderDirection: desc, first: 1000, skip: 5000) { id } }" },
    { query: '{ domain(id: "") { id } }' },
    { query: "query($w: Domain_filter) { domains(where: $w) { id } }", variables: { w: { nope: 1 } } },
    {
      query: "query($w: Domain_filter) { domains(where: $w) { id } }",
      variables: { w: { and: [{ or: [{ parent_: { parent_: { name_in: ["a"] } } }] }] } },
    },
    { query: "{ domains { ... on Account { id } } }" },
    { query: "{ domainEvents { ... on Transfer { owner { domains(first: 1) { id } } } } }" },
  ];
  it.each(junk.map((j, i) => [i, j]))("input %i", async (_i, body) => {
    const res = await post(body);
    expect(res.status).toBeLessThan(500);
    const json = await res.json();
    expect(json.data !== undefined || Array.isArray(json.errors)).toBe(true);
  });

  it("the database stays intact", async () => {
    const json = await (await post({ query: "{ domains(first: 1) { id } }" })).json();
    expect(json.data.domains.length).toBe(1);
  });
});

describe("NUL characters", () => {
  it("are a GraphQL error, not a database error", async () => {
    for (const query of [
      '{ domains(where: { name: "a\\u0000b" }) { id } }',
      '{ domains(where: { name_contains_nocase: "\\u0000" }) { id } }',
      '{ domain(id: "\\u0000") { id } }',
      '{ resolvers(where: { texts_contains_nocase: ["\\u0000"] }) { id } }',
    ]) {
      const json = await (await post({ query })).json();
      expect(json.errors[0].message).toMatch(/NUL/);
    }
  });
});

describe("browsers and other clients", () => {
  it("CORS: preflight and headers on answers", async () => {
    const pre = await app.request("/subgraph", {
      method: "OPTIONS",
      headers: {
        origin: "https://app.ens.domains",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect(pre.status).toBeLessThan(300);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    const res = await post(
      { query: "{ domains(first: 1) { id } }" },
      { "content-type": "application/json", origin: "https://x.example" },
    );
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("application/graphql bodies", async () => {
    const res = await post('{ domains(where: { name: "eth" }) { name } }', { "content-type": "application/graphql" });
    expect(await res.json()).toEqual({ data: { domains: [{ name: "eth" }] } });
  });
});

describe("fragment bombs", () => {
  it("a small document expanding to a huge tree is refused quickly", async () => {
    const levels = 8;
    const frags = Array.from({ length: levels }, (_, i) =>
      i === levels - 1
        ? `fragment F${i} on Domain { id }`
        : `fragment F${i} on Domain { ${Array.from({ length: 12 }, () => `...F${i + 1}`).join(" ")} parent { ...F${i + 1} } }`,
    ).join("\n");
    const started = Date.now();
    const res = await post({ query: `{ domains(first: 1) { ...F0 } }\n${frags}` });
    expect(res.status).toBe(200);
    expect((await res.json()).errors?.length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe("paths", () => {
  it("serves /subgraph and /subgraph/, nothing deeper", async () => {
    const body = JSON.stringify({ query: "{ domains(first: 1) { id } }" });
    const headers = { "content-type": "application/json" };
    for (const path of ["/subgraph", "/subgraph/"]) {
      const res = await app.request(path, { method: "POST", headers, body });
      expect(res.status).toBe(200);
      expect((await res.json()).data.domains.length).toBe(1);
    }
    expect((await app.request("/subgraph/?query=%7B_meta%7Bdeployment%7D%7D")).status).toBe(200);
    expect((await app.request("/subgraph/nope", { method: "POST", headers, body })).status).toBe(404);
  });
});

describe("nesting", () => {
  it("deeply nested filters in variables or literals are refused, not a stack overflow", async () => {
    // Built as text: JSON.stringify itself would overflow on this.
    const deep = `${'{"and":['.repeat(3000)}{"name":"x"}${"]}".repeat(3000)}`;
    const v = await (
      await post(`{"query":"query($w: Domain_filter) { domains(where: $w) { id } }","variables":{"w":${deep}}}`)
    ).json();
    expect(v.errors[0].message).toMatch(/nested more than 64 levels/);
    const literal = `{ domains(where: ${"{ and: [".repeat(500)}{ name: "x" }${"] }".repeat(500)}) { id } }`;
    const l = await (await post({ query: literal })).json();
    expect(l.errors[0].message).toMatch(/nested more than 64 levels/);
    // Brackets inside strings and comments do not count.
    const ok = await (
      await post({ query: `# ${"{".repeat(100)}\n{ domains(where: { name: "${"[".repeat(100)}" }) { id } }` })
    ).json();
    expect(ok.errors).toBeUndefined();
    // A reasonable nesting is fine.
    let w2: Record<string, unknown> = { name: "eth" };
    for (let i = 0; i < 20; i++) w2 = { and: [w2] };
    const fine = await (
      await post({ query: "query($w: Domain_filter) { domains(where: $w) { name } }", variables: { w: w2 } })
    ).json();
    expect(fine.data.domains).toEqual([{ name: "eth" }]);
  });
});
