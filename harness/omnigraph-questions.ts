import { Kind, parse, print, visit } from "graphql";
import { PEER_OMNIGRAPH_DIR, peerCookbook } from "./peer-omnigraph";
import type { Rows as FixtureRows } from "./subgraph-fixture/fixture";

/*
 * bench:omnigraph's questions (bench/omnigraph.ts says how they are measured). The Omnigraph's are the peer's cookbook's
 * own queries, read by id from its examples.json at run time (harness/peer-omnigraph.ts finds the folder; nothing
 * is copied here), each asked about the fixture's subjects; the /subgraph forms, and the questions the cookbook does
 * not ask, are written here.
 */

/** A named set of request bodies, asked in turn (bench/lib/subgraph-queries.ts's `run`). */
export interface Case {
  name: string;
  bodies: string[];
}

export interface Question {
  /** The cookbook query (examples.json id) the Omnigraph form asks; none for a question of our own. */
  cookbookId?: string;
  name: string;
  omnigraph: Case;
  subgraph?: Case;
}

export const body = (query: string, variables: Record<string, unknown>) => JSON.stringify({ query, variables });

/**
 * The cookbook's query `id` as the peer publishes it, without its `resolve { … }` selections (no chain here), and its
 * variables as published (the caller puts the fixture's subjects over them).
 */
export function cookbookQuery(id: string): { query: string; variables: Record<string, unknown> } {
  const example = peerCookbook().find((e) => e.id === id);
  if (!example) {
    throw new Error(
      `the cookbook query "${id}" is not in ${PEER_OMNIGRAPH_DIR}/examples.json (the bench asks the peer's own questions, read from there: set PEER_OMNIGRAPH_DIR to its folder)`,
    );
  }
  const document = visit(parse(example.query), {
    Field: (field) => (field.name.value === "resolve" ? null : undefined),
    SelectionSet: {
      leave: (set) => {
        if (set.selections.length === 0) throw new Error(`cookbook "${id}" asks nothing but resolution somewhere`);
      },
    },
  });
  if (document.definitions.some((d) => d.kind !== Kind.OPERATION_DEFINITION))
    throw new Error(`cookbook "${id}": expected operations only`);
  return { query: print(document), variables: example.variables };
}

const pick = <T>(list: T[], n: number) => Array.from({ length: n }, (_, i) => list[(i * 7919) % list.length]!);

/** The account owning most of the fixture's domains. */
export function topOwner(domains: Record<string, unknown>[]): string {
  const counts = new Map<string, number>();
  for (const d of domains) counts.set(d.ownerId as string, (counts.get(d.ownerId as string) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
}

/** The cookbook's questions on the fixture's subjects; the /subgraph form where it can ask the same. */
export function omnigraphQuestions(rows: FixtureRows): Question[] {
  const domains = rows.domain!;
  const normalized = domains.filter(
    (d) => typeof d.name === "string" && /^[a-z0-9-]+(\.[a-z0-9-]+)*\.eth$/.test(d.name as string),
  );
  const names = normalized.map((d) => d.name as string);
  const owners = [...new Set(domains.map((d) => d.ownerId as string))];
  const parents = normalized.filter((d) => (d.subdomainCount as number) > 0).map((d) => d.name as string);
  const byName = cookbookQuery("domain-by-name");
  const byAddress = cookbookQuery("domains-by-address");
  const recent = cookbookQuery("domain-subdomains-recently-registered");
  const find = cookbookQuery("find-domains");
  return [
    {
      // cookbook domain-by-name, without its `resolve` (no chain here).
      name: "domain by name",
      cookbookId: "domain-by-name",
      omnigraph: {
        name: "domain by name",
        bodies: pick(names, 500).map((name) => body(byName.query, { ...byName.variables, name })),
      },
      subgraph: {
        name: "domain by name",
        bodies: pick(names, 500).map((name) =>
          body(
            `query($name: String!) { domains(where: { name: $name }) { id name labelName labelhash owner { id } resolver { address } registration { registrationDate expiryDate } } }`,
            { name },
          ),
        ),
      },
    },
    {
      // cookbook domains-by-address (its defaults: first 100, by name); /subgraph's `owner` (the registry's) is the
      // closest.
      name: "domains of an owner",
      cookbookId: "domains-by-address",
      omnigraph: {
        name: "domains of an owner",
        bodies: pick(owners, 500).map((address) => body(byAddress.query, { ...byAddress.variables, address })),
      },
      subgraph: {
        name: "domains of an owner",
        bodies: pick(owners, 500).map((owner) =>
          body(
            `query($owner: String!) { domains(first: 100, where: { owner: $owner }, orderBy: name) { labelName name } }`,
            { owner },
          ),
        ),
      },
    },
    // The account that holds most names: its domains (cookbook domains-by-address) against the names pointing at it
    // (Account.nameReferences, which the cookbook does not ask: one name_reference row per domain for its owner,
    // seeded by seedNameReferences).
    {
      name: "domains of the top owner",
      cookbookId: "domains-by-address",
      omnigraph: {
        name: "domains of the top owner",
        bodies: [body(byAddress.query, { ...byAddress.variables, address: topOwner(domains) })],
      },
    },
    {
      name: "name references of the top owner",
      omnigraph: {
        name: "name references of the top owner",
        bodies: [
          body(
            `query($address: Address!) { account(by: { address: $address }) { nameReferences(first: 100) { edges { node { coinType domain { label { interpreted } canonical { name { interpreted beautified } } } } } } } }`,
            { address: topOwner(domains) },
          ),
        ],
      },
    },
    {
      // cookbook domain-subdomains-recently-registered (its page: 10); every tenth parent is `eth`.
      name: "subdomains, newest first",
      cookbookId: "domain-subdomains-recently-registered",
      omnigraph: {
        name: "subdomains, newest first",
        bodies: pick(parents, 500).map((name, i) =>
          body(recent.query, { ...recent.variables, name: i % 10 === 0 ? "eth" : name }),
        ),
      },
      subgraph: {
        name: "subdomains, newest first",
        bodies: pick(parents, 500).map((name, i) =>
          body(
            `query($name: String!) { domains(where: { name: $name }) { name subdomains(first: 100, orderBy: createdAt, orderDirection: desc) { name owner { id } } } }`,
            { name: i % 10 === 0 ? "eth" : name },
          ),
        ),
      },
    },
    {
      // cookbook find-domains: a prefix search, 20 in the cookbook's order (by name, descending). /subgraph's
      // `name_starts_with`.
      name: "find domains by prefix",
      cookbookId: "find-domains",
      omnigraph: {
        name: "find domains by prefix",
        bodies: pick(names, 500).map((name) =>
          body(find.query, { ...find.variables, name: { starts_with: name.slice(0, 3) } }),
        ),
      },
      subgraph: {
        name: "find domains by prefix",
        bodies: pick(names, 500).map((name) =>
          body(
            `query($p: String!) { domains(first: 20, where: { name_starts_with: $p }, orderBy: name, orderDirection: desc) { id labelName labelhash name registration { expiryDate } } }`,
            { p: name.slice(0, 3) },
          ),
        ),
      },
    },
  ];
}
