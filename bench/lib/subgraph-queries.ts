/*
 * The five common /subgraph queries of bench:graphql (subjects read from an index, a realistic mix of variable sets)
 * and an autocannon run over one of them; shared by bench:graphql and bench:scale.
 */
import { createRequire } from "node:module";
import { namehash } from "viem";
import type { Case } from "../../harness/omnigraph-questions";

interface AutocannonResult {
  latency: { p50: number; p99: number; max: number };
  requests: { average: number; total: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
interface AutocannonRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: AutocannonRequest) => AutocannonRequest;
  onResponse?: (status: number, body: string, context: unknown, headers: Record<string, string>) => void;
}
// autocannon ships no types; this is the part of its API used here.
const autocannon = createRequire(import.meta.url)("autocannon") as (opts: {
  url: string;
  connections: number;
  duration: number;
  /** Stop after this many requests in all (instead of after `duration`); at least `connections`. */
  amount?: number;
  requests: AutocannonRequest[];
}) => Promise<AutocannonResult>;

/** What the five queries are asked about: names, owners, parents with children, resolvers and their domains. */
export interface Subjects {
  names: string[];
  owners: string[];
  parents: string[];
  resolvers: { id: string; domainId: string }[];
  /** A parent with thousands of children (`eth`), asked every tenth time. */
  bigParent: string;
}

/** The same subjects read from a real index through its /subgraph (up to 5,000 domains). */
export async function indexSubjects(url: string): Promise<Subjects> {
  const domains: {
    id: string;
    name: string | null;
    owner: { id: string };
    subdomainCount: number;
    resolver: { id: string } | null;
  }[] = [];
  for (let skip = 0; skip <= 4000; skip += 1000) {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: `query($skip: Int) { domains(first: 1000, skip: $skip, orderBy: id) { id name owner { id } subdomainCount resolver { id } } }`,
        variables: { skip },
      }),
    });
    const page = ((await res.json()) as { data: { domains: typeof domains } }).data.domains;
    domains.push(...page);
    if (page.length < 1000) break;
  }
  const eth = namehash("eth");
  return {
    names: domains.filter((d) => d.name?.endsWith(".eth")).map((d) => d.name!),
    owners: [...new Set(domains.map((d) => d.owner.id))],
    parents: domains.filter((d) => d.subdomainCount > 0 && d.id !== eth).map((d) => d.id),
    resolvers: domains.filter((d) => d.resolver).map((d) => ({ id: d.resolver!.id, domainId: d.id })),
    bigParent: eth,
  };
}

export function cases(s: Subjects): Case[] {
  const body = (query: string, variables: Record<string, unknown>) => JSON.stringify({ query, variables });
  const pick = <T>(list: T[], n: number) => Array.from({ length: n }, (_, i) => list[(i * 7919) % list.length]!);

  return [
    {
      name: "domain by name",
      bodies: pick(s.names, 500).map((name) =>
        body(
          `query($name: String!) { domains(where: { name: $name }) { id name labelName labelhash owner { id } resolver { id address } expiryDate registration { registrationDate expiryDate } } }`,
          { name },
        ),
      ),
    },
    {
      name: "domains of an owner",
      bodies: pick(s.owners, 500).map((o) =>
        body(
          `query($owner: String!) { domains(first: 100, where: { owner: $owner }, orderBy: name) { id name createdAt expiryDate } }`,
          { owner: o },
        ),
      ),
    },
    {
      name: "subdomains of a parent",
      // Mostly names with a few children; every tenth request is `eth`, with thousands.
      bodies: pick(s.parents, 500).map((p, i) =>
        body(
          `query($id: ID!) { domain(id: $id) { name subdomains(first: 100, orderBy: createdAt, orderDirection: desc) { id name owner { id } } } }`,
          { id: i % 10 === 0 ? s.bigParent : p },
        ),
      ),
    },
    {
      name: "latest 100 registrations",
      bodies: [
        body(
          `{ registrations(first: 100, orderBy: registrationDate, orderDirection: desc) { id labelName registrationDate expiryDate registrant { id } domain { name } } }`,
          {},
        ),
      ],
    },
    {
      name: "text-record lookup",
      bodies: pick(s.resolvers, 500).map((r) =>
        body(
          `query($domain: ID!, $resolver: String!) { domain(id: $domain) { name resolver { texts coinTypes } } textChangeds(first: 1, where: { resolver: $resolver, key: "avatar" }, orderBy: blockNumber, orderDirection: desc) { value } }`,
          { domain: r.domainId, resolver: r.id },
        ),
      ),
    },
  ];
}

/** How the query-result cache answered each request (x-subgraph-cache: hit, shared, miss; absent when uncached). */
export type Outcomes = Record<string, number>;

/** Runs `c` for `duration` seconds, or, with `once`, asks each of its distinct bodies exactly once. */
export async function run(url: string, c: Case, duration: number, connections: number, once = false) {
  let i = 0;
  const bodies = once ? [...new Set(c.bodies)] : c.bodies;
  const outcomes: Outcomes = {};
  let graphqlErrors = 0;
  const result = await autocannon({
    url,
    connections: once ? Math.min(connections, bodies.length) : connections,
    duration,
    ...(once ? { amount: bodies.length } : {}),
    requests: [
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        setupRequest: (req) => ({ ...req, body: bodies[i++ % bodies.length] }),
        onResponse: (_status, body, _context, headers) => {
          const outcome = headers["x-subgraph-cache"] ?? headers["x-omnigraph-cache"] ?? "none";
          outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
          if (body.includes('"errors":')) graphqlErrors++;
        },
      },
    ],
  });
  if (graphqlErrors > 0) throw new Error(`${c.name}: ${graphqlErrors} answers with GraphQL errors`);
  return { ...result, outcomes, distinct: bodies.length };
}
