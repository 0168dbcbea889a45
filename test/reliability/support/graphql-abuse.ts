import { getIntrospectionQuery } from "graphql";

/*
 * Abusive /subgraph requests, each with the answer the endpoint owes: a GraphQL error (HTTP 200, `errors` with a
 * message matching `error`), a transport rejection (400/413, documented in docs/api.md), or, for introspection, data.
 */

export interface AbuseCase {
  name: string;
  /** The POST body as sent. */
  body: string;
  contentType?: string;
  status: number;
  /** The first error's message must match; undefined: the request must succeed with data and no errors. */
  error?: RegExp;
}

const json = (query: string, variables?: unknown, operationName?: string) =>
  JSON.stringify({ query, variables, operationName });

/** `{ domains { owner { domains { owner … } } } }` with `levels` object levels. */
function nested(levels: number): string {
  let open = "";
  let close = "";
  for (let i = 0; i < levels; i++) {
    open += i % 2 === 0 ? "domains(first: 1) { id " : "owner { id ";
    close += "} ";
  }
  return `{ ${open}${close}}`;
}

export function abuseCases(): AbuseCase[] {
  const aliases = (n: number, field = "_meta { block { number } }") =>
    `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(" ")} }`;
  // F0 spreads F1 twice, F1 spreads F2 twice, …: a small document describing 2^N selections.
  const bombDepth = 24;
  const bomb =
    "query { domains(first: 1) { ...F0 } } " +
    Array.from({ length: bombDepth }, (_, i) =>
      i < bombDepth - 1
        ? `fragment F${i} on Domain { id ...F${i + 1} ...F${i + 1} }`
        : `fragment F${i} on Domain { id name }`,
    ).join(" ");
  return [
    {
      name: "deep nesting (40 object levels)",
      body: json(nested(40)),
      status: 200,
      error: /too deep|nested more than/,
    },
    {
      name: "deep brackets (5,000 levels)",
      body: json("{".repeat(5000) + "}".repeat(5000)),
      status: 200,
      error: /nested more than|too large/,
    },
    {
      name: "variables nested 10,000 levels",
      body: `{"query":"query($w: Domain_filter) { domains(where: $w) { id } }","variables":{"w":${"[".repeat(10_000)}${"]".repeat(10_000)}}}`,
      status: 200,
      error: /nested more than/,
    },
    { name: "500 aliases", body: json(aliases(500)), status: 200, error: /aliases, the limit is/ },
    {
      name: "3,000 aliases (over the size limit)",
      body: json(aliases(3000, "domains(first: 1000) { id }")),
      status: 200,
      error: /too large/,
    },
    {
      name: "first: 1000000000",
      body: json("{ domains(first: 1000000000) { id } }"),
      status: 200,
      error: /`first` argument must be between 0 and 1000/,
    },
    {
      name: "first: 1e9 (a float)",
      body: json("{ domains(first: 1e9) { id } }"),
      status: 200,
      error: /Int cannot represent/,
    },
    {
      name: "first: 2^53 via a variable",
      body: json("query($n: Int) { domains(first: $n) { id } }", { n: 2 ** 53 }),
      status: 200,
      error: /Int cannot represent|must be between/,
    },
    {
      name: "skip: 100000000",
      body: json("{ domains(skip: 100000000) { id } }"),
      status: 200,
      error: /`skip` argument must be between 0 and 5000/,
    },
    { name: "negative first", body: json("{ domains(first: -1) { id } }"), status: 200, error: /must be between/ },
    {
      name: "rows multiplied by nesting",
      body: json("{ domains(first: 1000) { subdomains(first: 1000) { subdomains(first: 1000) { id } } } }"),
      status: 200,
      error: /more than 100000 entities/,
    },
    { name: "unknown field", body: json("{ domains { nope } }"), status: 200, error: /Cannot query field "nope"/ },
    {
      name: "2,000 unknown fields",
      body: json(`{ domains { ${Array.from({ length: 2000 }, (_, i) => `f${i}`).join(" ")} } }`),
      status: 200,
      error: /fields, the limit is 1000/,
    },
    {
      name: "900 unknown fields",
      body: json(`{ domains { ${Array.from({ length: 900 }, (_, i) => `f${i}`).join(" ")} } }`),
      status: 200,
      error: /Cannot query field/,
    },
    // graphql-js compares overlapping fields pairwise: as many as the field limit allows must still be quick.
    {
      name: "990 repeated fields",
      body: json(`{ domains(first: 1) { ${"id ".repeat(990)}} }`),
      status: 200,
      error: /too complex to validate/,
    },
    {
      name: "200 repeated fields",
      body: json(`{ domains(first: 1) { ${"id ".repeat(200)}} }`),
      status: 200,
      error: undefined,
    },
    {
      name: "6,500 repeated fields",
      body: json(`{ domains(first: 1) { ${"id ".repeat(6500)}} }`),
      status: 200,
      error: /fields, the limit is 1000/,
    },
    {
      name: "9,000 repeated fields",
      body: json(`{ domains(first: 1) { ${"id ".repeat(9000)}} }`),
      status: 200,
      error: /too large/,
    },
    {
      name: "unknown argument and type",
      body: json("query($x: Nope) { domains(bogus: 1) { id } }"),
      status: 200,
      error: /Unknown type "Nope"|Unknown argument/,
    },
    {
      name: "400 operations, no operationName",
      body: json(Array.from({ length: 400 }, (_, i) => `query q${i} { _meta { block { number } } }`).join(" ")),
      status: 200,
      error: /400 operations, the limit is 20/,
    },
    {
      name: "15 operations, no operationName",
      body: json(Array.from({ length: 15 }, (_, i) => `query q${i} { _meta { block { number } } }`).join(" ")),
      status: 200,
      error: /Must provide operation name/,
    },
    {
      name: "operationName that does not exist",
      body: json("query a { _meta { block { number } } }", undefined, "b"),
      status: 200,
      error: /Unknown operation named "b"/,
    },
    {
      name: "fragment cycle",
      body: json(
        "query { domains(first: 1) { ...A } } fragment A on Domain { owner { ...B } } fragment B on Account { domains { ...A } }",
      ),
      status: 200,
      error: /Cannot spread fragment/,
    },
    {
      name: `fragment bomb (2^${bombDepth} selections)`,
      body: json(bomb),
      status: 200,
      error: /too complex|too deep|entities/,
    },
    {
      name: "variable of the wrong type (string for Int)",
      body: json("query($n: Int) { domains(first: $n) { id } }", { n: "ten" }),
      status: 200,
      error: /Int cannot represent/,
    },
    {
      name: "variable of the wrong type (object for ID!)",
      body: json("query($id: ID!) { domain(id: $id) { id } }", { id: { $ne: 1 } }),
      status: 200,
      error: /ID cannot represent|Variable "\$id"/,
    },
    {
      name: "missing required variable",
      body: json("query($id: ID!) { domain(id: $id) { id } }", {}),
      status: 200,
      error: /was not provided/,
    },
    {
      name: "variables as an array",
      body: JSON.stringify({ query: "{ _meta { block { number } } }", variables: [1, 2] }),
      status: 400,
      error: /Variables must be a JSON object/,
    },
    {
      name: "query is a number",
      body: JSON.stringify({ query: 42 }),
      status: 400,
      error: /Must provide a query string/,
    },
    {
      name: "1 MiB query string",
      body: json(`{ domains { id } } # ${"x".repeat(1 << 20)}`),
      status: 413,
      error: /larger than/,
    },
    {
      name: "200 KiB query string",
      body: json(`{ domains { id } } # ${"x".repeat(200 << 10)}`),
      status: 200,
      error: /too large/,
    },
    { name: "syntax error", body: json("{ domains { id }"), status: 200, error: /Syntax Error/ },
    { name: "mutation", body: json("mutation { x }"), status: 200, error: /mutation|Schema is not configured/i },
    {
      name: "subscription",
      body: json("subscription { domains { id } }"),
      status: 200,
      error: /subscription|not configured/i,
    },
    {
      name: "directive flood",
      body: json(`{ _meta ${"@include(if: true) ".repeat(1000)}{ block { number } } }`),
      status: 200,
      error: /1000 directives, the limit is 50/,
    },
    {
      name: "full introspection",
      body: json(getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, inputValueDeprecation: true })),
      status: 200,
      error: undefined,
    },
  ];
}

/** `{ domain(by: { name: "eth" }) { subdomains { edges { node { owner { domains { edges { node … } } } } } } } }`. */
function omnigraphNested(levels: number): string {
  let open = "";
  let close = "";
  for (let i = 0; i < levels; i++) {
    open +=
      i % 2 === 0 ? "subdomains(first: 1) { edges { node { id " : "owner { domains(first: 1) { edges { node { id ";
    close += i % 2 === 0 ? "} } } " : "} } } } ";
  }
  return `{ domain(by: { name: "eth" }) { id ${open}${close}} }`;
}

/** The same abuses against /api/omnigraph's schema, plus its own limits (page size 1000, resolution fields 50). */
export function omnigraphAbuseCases(): AbuseCase[] {
  const meta = 'domain(by: { name: "eth" }) { id }';
  const aliases = (n: number, field = meta) =>
    `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(" ")} }`;
  const bombDepth = 24;
  const bomb =
    'query { domain(by: { name: "eth" }) { ...F0 } } ' +
    Array.from({ length: bombDepth }, (_, i) =>
      i < bombDepth - 1
        ? `fragment F${i} on Domain { id ...F${i + 1} ...F${i + 1} }`
        : `fragment F${i} on Domain { id }`,
    ).join(" ");
  // Two resolution fields per aliased `resolve` (the alias limit, 30, would refuse 51 aliases first).
  const resolutions = (n: number) =>
    `{ domain(by: { name: "eth" }) { ${Array.from({ length: n }, (_, i) => `r${i}: resolve { records { texts(keys: ["k${i}"]) { value } } profile { description } }`).join(" ")} } }`;
  return [
    {
      name: "omnigraph: deep nesting (30 object levels)",
      body: json(omnigraphNested(10)),
      status: 200,
      error: /too deep|nested more than/,
    },
    {
      name: "omnigraph: deep brackets (5,000 levels)",
      body: json("{".repeat(5000) + "}".repeat(5000)),
      status: 200,
      error: /nested more than|too large|Syntax Error|token/,
    },
    {
      name: "omnigraph: variables nested 10,000 levels",
      body: `{"query":"query($w: DomainsWhereInput!) { domains(where: $w) { totalCount } }","variables":{"w":${"[".repeat(10_000)}${"]".repeat(10_000)}}}`,
      status: 200,
      error: /nested more than/,
    },
    { name: "omnigraph: 500 aliases", body: json(aliases(500)), status: 200, error: /aliases, the limit is/ },
    {
      name: "omnigraph: 3,000 aliases (over the size limit)",
      body: json(aliases(3000)),
      status: 200,
      error: /too large/,
    },
    {
      name: "omnigraph: first: 1000000000",
      body: json('{ domains(first: 1000000000, where: { name: { starts_with: "a" } }) { totalCount } }'),
      status: 200,
      error: /must be between 0 and 1000/,
    },
    {
      name: "omnigraph: last: 1001 via a variable",
      body: json('query($n: Int) { domains(last: $n, where: { name: { starts_with: "a" } }) { totalCount } }', {
        n: 1001,
      }),
      status: 200,
      error: /must be between 0 and 1000/,
    },
    {
      name: "omnigraph: first: 2^53 via a variable",
      body: json('query($n: Int) { domains(first: $n, where: { name: { starts_with: "a" } }) { totalCount } }', {
        n: 2 ** 53,
      }),
      status: 200,
      error: /Int cannot represent|must be between/,
    },
    {
      name: "omnigraph: negative first",
      body: json('{ domains(first: -1, where: { name: { starts_with: "a" } }) { totalCount } }'),
      status: 200,
      error: /must be between/,
    },
    {
      name: "omnigraph: first and last",
      body: json('{ domains(first: 1, last: 1, where: { name: { starts_with: "a" } }) { totalCount } }'),
      status: 200,
      error: /not both/,
    },
    {
      name: "omnigraph: a cursor that is not ours",
      body: json('{ domains(first: 1, after: "not-a-cursor", where: { name: { starts_with: "a" } }) { totalCount } }'),
      status: 200,
      error: /cursor/i,
    },
    {
      name: "omnigraph: entities multiplied by nesting",
      body: json(
        '{ domain(by: { name: "eth" }) { subdomains(first: 1000) { edges { node { subdomains(first: 1000) { edges { node { id } } } } } } } }',
      ),
      status: 200,
      error: /more than 100000 entities/,
    },
    {
      name: "omnigraph: 52 resolution fields",
      body: json(resolutions(26)),
      status: 200,
      error: /52 resolution fields .*the limit is 50/,
    },
    { name: "omnigraph: 24 resolution fields", body: json(resolutions(12)), status: 200, error: undefined },
    {
      name: "omnigraph: both @oneOf members",
      body: json('{ domain(by: { name: "eth", id: "0x00" }) { id } }'),
      status: 200,
      error: /exactly one|oneOf|must specify exactly one/i,
    },
    {
      name: "omnigraph: a name that is not normalized",
      body: json('{ domain(by: { name: "ALICE..eth" }) { id } }'),
      status: 200,
      error: /InterpretedName|normaliz|name/i,
    },
    {
      name: "omnigraph: unknown field",
      body: json("{ root { nope } }"),
      status: 200,
      error: /Cannot query field "nope"/,
    },
    {
      name: "omnigraph: 2,000 unknown fields",
      body: json(`{ root { ${Array.from({ length: 2000 }, (_, i) => `f${i}`).join(" ")} } }`),
      status: 200,
      error: /fields, the limit is 1000/,
    },
    {
      name: "omnigraph: 990 repeated fields",
      body: json(`{ root { ${"id ".repeat(990)}} }`),
      status: 200,
      error: /too complex to validate/,
    },
    {
      name: "omnigraph: 200 repeated fields",
      body: json(`{ root { ${"id ".repeat(200)}} }`),
      status: 200,
      error: undefined,
    },
    {
      name: "omnigraph: 9,000 repeated fields",
      body: json(`{ root { ${"id ".repeat(9000)}} }`),
      status: 200,
      error: /too large|fields, the limit/,
    },
    {
      name: "omnigraph: 400 operations",
      body: json(Array.from({ length: 400 }, (_, i) => `query q${i} { root { id } }`).join(" ")),
      status: 200,
      error: /400 operations, the limit is 20/,
    },
    {
      name: "omnigraph: fragment cycle",
      body: json(
        'query { domain(by: { name: "eth" }) { ...A } } fragment A on Domain { owner { ...B } } fragment B on Account { domains { edges { node { ...A } } } }',
      ),
      status: 200,
      error: /Cannot spread fragment/,
    },
    {
      name: `omnigraph: fragment bomb (2^${bombDepth} selections)`,
      body: json(bomb),
      status: 200,
      error: /too complex|too deep|entities|fields/,
    },
    {
      name: "omnigraph: variable of the wrong type",
      body: json("query($by: DomainIdInput!) { domain(by: $by) { id } }", { by: { name: { $ne: 1 } } }),
      status: 200,
      error: /Variable "\$by"/,
    },
    {
      name: "omnigraph: missing required variable",
      body: json("query($by: DomainIdInput!) { domain(by: $by) { id } }", {}),
      status: 200,
      error: /was not provided/,
    },
    {
      name: "omnigraph: variables as an array",
      body: JSON.stringify({ query: "{ root { id } }", variables: [1, 2] }),
      status: 400,
      error: /Variables must be a JSON object/,
    },
    {
      name: "omnigraph: query is a number",
      body: JSON.stringify({ query: 42 }),
      status: 400,
      error: /Must provide a query string/,
    },
    { name: "omnigraph: body not JSON", body: "{ root { id } ", status: 400, error: /not valid JSON/ },
    {
      name: "omnigraph: 1 MiB query string",
      body: json(`{ root { id } } # ${"x".repeat(1 << 20)}`),
      status: 413,
      error: /larger than/,
    },
    {
      name: "omnigraph: 200 KiB query string",
      body: json(`{ root { id } } # ${"x".repeat(200 << 10)}`),
      status: 200,
      error: /too large/,
    },
    { name: "omnigraph: syntax error", body: json("{ root { id }"), status: 200, error: /Syntax Error/ },
    {
      name: "omnigraph: mutation",
      body: json("mutation { x }"),
      status: 200,
      error: /mutation|Schema is not configured/i,
    },
    {
      name: "omnigraph: directive flood",
      body: json(`{ root ${"@include(if: true) ".repeat(1000)}{ id } }`),
      status: 200,
      error: /1000 directives, the limit is 50/,
    },
    {
      name: "omnigraph: full introspection",
      body: json(getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, inputValueDeprecation: true })),
      status: 200,
      error: undefined,
    },
  ];
}
