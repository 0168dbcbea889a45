/*
 * The common /subgraph query shapes (the five of bench/graphql.ts, the ones ENS apps send), filled from what a live
 * index holds, as JSON POST bodies. The abuse and load tests use them as the "normal" traffic.
 */

export interface IndexedSample {
  names: string[];
  ids: string[];
  owners: string[];
}

/** Reads names, ids and owners to query from the index itself. */
export async function sampleIndex(url: string): Promise<IndexedSample> {
  const res = await fetch(`${url}/subgraph`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "{ domains(first: 1000, orderBy: createdAt) { id name owner { id } } }" }),
  });
  const body = (await res.json()) as {
    data?: { domains: { id: string; name: string | null; owner: { id: string } }[] };
  };
  const domains = body.data?.domains ?? [];
  if (domains.length === 0) throw new Error(`the index has no domains to query: ${JSON.stringify(body).slice(0, 300)}`);
  return {
    names: domains.flatMap((d) => (d.name && d.name.endsWith(".eth") ? [d.name] : [])),
    ids: domains.map((d) => d.id),
    owners: [...new Set(domains.map((d) => d.owner.id))],
  };
}

/** One normal query body, chosen by `i`. */
export function normalQuery(sample: IndexedSample, i: number): { shape: string; body: string } {
  const pick = <T>(list: T[]) => list[(i * 7919) % list.length];
  const body = (query: string, variables: Record<string, unknown> = {}) => JSON.stringify({ query, variables });
  switch (i % 5) {
    case 0:
      return {
        shape: "domain by name",
        body: body(
          "query($name: String!) { domains(where: { name: $name }) { id name labelName labelhash owner { id } resolver { id address } expiryDate registration { registrationDate expiryDate } } }",
          { name: pick(sample.names) ?? "eth" },
        ),
      };
    case 1:
      return {
        shape: "domains of an owner",
        body: body(
          "query($owner: String!) { domains(first: 100, where: { owner: $owner }, orderBy: name) { id name createdAt expiryDate } }",
          {
            owner: pick(sample.owners),
          },
        ),
      };
    case 2:
      return {
        shape: "subdomains of a parent",
        body: body(
          "query($id: ID!) { domain(id: $id) { name subdomains(first: 100, orderBy: createdAt, orderDirection: desc) { id name owner { id } } } }",
          {
            id: pick(sample.ids),
          },
        ),
      };
    case 3:
      return {
        shape: "latest registrations",
        body: body(
          "{ registrations(first: 100, orderBy: registrationDate, orderDirection: desc) { id labelName registrationDate expiryDate registrant { id } domain { name } } }",
        ),
      };
    default:
      return {
        shape: "resolver records",
        body: body(
          "query($id: ID!) { domain(id: $id) { name resolver { texts coinTypes addr { id } } } _meta { block { number } } }",
          { id: pick(sample.ids) },
        ),
      };
  }
}

/** Latency percentiles of a list of milliseconds. */
export function percentiles(ms: number[]): { n: number; p50: number; p99: number; max: number } {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { n: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? Number.NaN };
}

export const fmt = (p: { n: number; p50: number; p99: number; max: number }) =>
  `n=${p.n} p50 ${p.p50.toFixed(1)} ms, p99 ${p.p99.toFixed(1)} ms, max ${p.max.toFixed(1)} ms`;
