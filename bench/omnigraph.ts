/*
 * npm run bench:omnigraph — /api/omnigraph against /subgraph on the same seeded PostgreSQL index: the peer's cookbook's
 * main questions (its examples.json, ../shared/peer/omnigraph/) asked through both endpoints where /subgraph can
 * express them, uncached: p50/p99 and req/s at 32 connections (autocannon, loopback), the server's CPU per request
 * and its SQL statements per request (every statement the server's pool sent, counted in the server process over
 * five requests sent one at a time). Then
 * one Omnigraph query at page sizes 10, 100 and 1000: its statements per request must not change (no N+1).
 *
 *   BENCH_NAMES=10000,50000 (default): index sizes, in domains (the fixture's .eth names and their subtrees).
 *   BENCH_DURATION=10 (seconds per query)  BENCH_CONNECTIONS=32  BENCH_ONLY=<name part>
 *   BENCH_CACHE=off (default) | on: with the query-result cache (the answers then measure the cache, not the query).
 *
 * The cookbook's resolution questions (records, profile, primary names) are left out: the fixture has no chain to
 * resolve on, and resolution costs RPC calls, not SQL (docs/benchmarks.md).
 */
import { availableParallelism, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { drizzle } from "drizzle-orm/node-postgres";
import { Hono } from "hono";
import pg from "pg";
import { omnigraphRoutes } from "../src/api/omnigraph";
import { ResolutionService } from "../src/api/resolution/service";
import { createSubgraphApp, ponderHeadToken, QueryCache } from "../src/api/subgraph";
import { FIXTURE_HEAD, FIXTURE_NAMESPACE as NAMESPACE } from "../test/subgraph-api/fixture";
import { PG_URL } from "../test/subgraph-api/pg";
import {
  type FixtureRows,
  forkServer,
  type ServerStats,
  seedFixture,
  serveOrRun,
  serveOverIpc,
} from "./lib/fixture-server";
import { type Case, run } from "./lib/subgraph-queries";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SIZES = (process.env.BENCH_NAMES ?? "10000,50000").split(",").map(Number);
const CACHE = process.env.BENCH_CACHE === "on";
const ONLY = process.env.BENCH_ONLY;
/** The fixture's domains per second-level name (its subtrees, the TLDs, reverse names): ~1.54. */
const DOMAINS_PER_SECOND_LEVEL = 10_000 / 6500;

/** Child mode: both endpoints over one pool whose statements are counted. */
async function serveChild(schemaName: string) {
  const pool = new pg.Pool({ connectionString: PG_URL, options: `-c search_path="${schemaName}"`, max: 16 });
  let statements = 0;
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    statements++;
    return query(...args);
  };
  const db = drizzle(pool);
  const cache = CACHE ? new QueryCache({ maxBytes: 64 * 1024 * 1024, head: ponderHeadToken(db) }) : undefined;
  const getMeta = async () => ({ block: FIXTURE_HEAD, deployment: "bench", hasIndexingErrors: false });
  const resolution = new ResolutionService({
    indexingStatus: { snapshot: async () => undefined },
    namespace: NAMESPACE,
    rpcUrls: new Map(),
    accelerationIndexed: false,
  });
  const app = new Hono();
  app.route("/subgraph", createSubgraphApp({ db, getMeta, cache }));
  app.route("/api/omnigraph", omnigraphRoutes({ db, namespace: NAMESPACE, resolution, cache }));
  const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () =>
    serveOverIpc(
      server,
      () => statements,
      () => pool.end(),
    ),
  );
}

interface Question {
  name: string;
  omnigraph: Case;
  subgraph?: Case;
}

const body = (query: string, variables: Record<string, unknown>) => JSON.stringify({ query, variables });
const pick = <T>(list: T[], n: number) => Array.from({ length: n }, (_, i) => list[(i * 7919) % list.length]!);

/** The account owning most of the fixture's domains. */
function topOwner(domains: Record<string, unknown>[]): string {
  const counts = new Map<string, number>();
  for (const d of domains) counts.set(d.ownerId as string, (counts.get(d.ownerId as string) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
}

/**
 * The indexer's name_reference rows for: every named domain's ETH address record points at its owner, and every
 * named domain's Base address record at the top owner (so that one account has as many references as the index has
 * names, as a few mainnet addresses do).
 */
async function seedNameReferences(pool: pg.Pool, top: string): Promise<number> {
  let total = 0;
  for (const [coinType, address] of [
    ["60", "owner_id"],
    [String(0x80000000 + 8453), `'${top}'`],
  ]) {
    const { rowCount } = await pool.query(
      `INSERT INTO name_reference (id, address, coin_type, holder_id, version, domain_id, chain_id, resolver)
       SELECT '31337-' || id || '-${coinType}', ${address}, ${coinType}, '31337-' || id, 'ENSv1', id, 31337,
         '0x${"11".repeat(20)}'
       FROM domain WHERE name IS NOT NULL AND owner_id <> '0x${"00".repeat(20)}'`,
    );
    total += rowCount ?? 0;
  }
  await pool.query("ANALYZE name_reference");
  return total;
}

/** The cookbook's questions on the fixture's subjects; the /subgraph form where it can ask the same. */
function questions(rows: FixtureRows): Question[] {
  const domains = rows.domain!;
  const normalized = domains.filter(
    (d) => typeof d.name === "string" && /^[a-z0-9-]+(\.[a-z0-9-]+)*\.eth$/.test(d.name as string),
  );
  const names = normalized.map((d) => d.name as string);
  const owners = [...new Set(domains.map((d) => d.ownerId as string))];
  const parents = normalized.filter((d) => (d.subdomainCount as number) > 0).map((d) => d.name as string);
  return [
    {
      // cookbook domain-by-name without its `resolve` (no chain here), plus what the subgraph form reads.
      name: "domain by name",
      omnigraph: {
        name: "domain by name",
        bodies: pick(names, 500).map((name) =>
          body(
            `query($name: InterpretedName!) { domain(by: { name: $name }) { id canonical { name { beautified } } label { interpreted hash } owner { address } resolver { assigned { contract { address } } } registration { expiry start } } }`,
            { name },
          ),
        ),
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
      // cookbook domains-by-address (first 100, by name); /subgraph's `owner` (the registry's) is the closest.
      name: "domains of an owner",
      omnigraph: {
        name: "domains of an owner",
        bodies: pick(owners, 500).map((address) =>
          body(
            `query($address: Address!) { account(by: { address: $address }) { domains(first: 100, order: { by: NAME }) { edges { node { label { interpreted } canonical { name { interpreted beautified } } } } } } }`,
            { address },
          ),
        ),
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
    // (Account.nameReferences, one name_reference row per domain for its owner, seeded by seedNameReferences).
    {
      name: "domains of the top owner",
      omnigraph: {
        name: "domains of the top owner",
        bodies: [
          body(
            `query($address: Address!) { account(by: { address: $address }) { domains(first: 100, order: { by: NAME }) { edges { node { label { interpreted } canonical { name { interpreted beautified } } } } } } }`,
            { address: topOwner(domains) },
          ),
        ],
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
      // cookbook domain-subdomains-recently-registered, at /subgraph's page size; every tenth parent is `eth`.
      name: "subdomains, newest first",
      omnigraph: {
        name: "subdomains, newest first",
        bodies: pick(parents, 500).map((name, i) =>
          body(
            `query($name: InterpretedName!) { domain(by: { name: $name }) { canonical { name { interpreted beautified } } subdomains(first: 100, order: { by: REGISTRATION_TIMESTAMP, dir: DESC }) { edges { node { canonical { name { interpreted beautified } } owner { address } } } } } }`,
            { name: i % 10 === 0 ? "eth" : name },
          ),
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
      // cookbook find-domains: a prefix search, 20 by name. /subgraph's `name_starts_with`.
      name: "find domains by prefix",
      omnigraph: {
        name: "find domains by prefix",
        bodies: pick(names, 500).map((name) =>
          body(
            `query($name: DomainsNameFilter!) { domains(where: { name: $name }, order: { by: NAME, dir: DESC }, first: 20) { edges { node { __typename id label { interpreted hash } canonical { name { interpreted beautified } } registration { expiry } } } } }`,
            { name: { starts_with: name.slice(0, 3) } },
          ),
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

/** `eth`'s subdomains two levels deep at page size `n`: the statements must stay the same for every `n`. */
const pageCase = (n: number): Case => ({
  name: `eth subdomains, first: ${n}, 2 levels`,
  bodies: [
    body(
      `query($n: Int!) { domain(by: { name: "eth" }) { subdomains(first: $n, order: { by: REGISTRATION_EXPIRY, dir: DESC }) { totalCount edges { node { id label { interpreted } owner { address } resolver { assigned { id } } registration { __typename expiry } subdomains(first: 5) { totalCount edges { node { id owner { address } canonical { name { interpreted } } } } } } } } } }`,
      { n },
    ),
  ],
});

type Row = Record<string, string | number>;

async function measure(url: string, c: Case, stats: () => Promise<ServerStats>, label: Row): Promise<Row> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: c.bodies[0] });
  const json = (await res.json()) as { errors?: unknown };
  if (res.status !== 200 || json.errors)
    throw new Error(`${label.endpoint} ${c.name}: ${res.status} ${JSON.stringify(json).slice(0, 500)}`);
  // Statements per request counted exactly, one request at a time on an idle server (a timed run's count would
  // include the requests still in flight when it ends).
  const sample = c.bodies.slice(0, 5);
  const idle = await stats();
  for (const b of sample)
    await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: b }).then((r) =>
      r.arrayBuffer(),
    );
  const statementsPerRequest = ((await stats()).statements - idle.statements) / sample.length;
  await run(url, c, 2, CONNECTIONS); // warm-up: connections, plans, parsed documents
  const before = await stats();
  const result = await run(url, c, DURATION, CONNECTIONS);
  const after = await stats();
  const n = Math.max(1, result.requests.total);
  return {
    ...label,
    query: c.name,
    "p50 ms": result.latency.p50,
    "p99 ms": result.latency.p99,
    "req/s": Math.round(result.requests.average),
    requests: result.requests.total,
    "CPU ms/req": Number(((after.cpuMs - before.cpuMs) / n).toFixed(3)),
    "SQL/req": Number(statementsPerRequest.toFixed(2)),
    "non-2xx": result.non2xx,
    load: loadavg()[0].toFixed(1),
  };
}

async function benchSize(domainsWanted: number): Promise<Row[]> {
  const { db, rows } = await seedFixture("og_bench", Math.round(domainsWanted / DOMAINS_PER_SECOND_LEVEL));
  const top = topOwner(rows.domain!);
  const references = await seedNameReferences(db.pool, top);
  const { rows: held } = await db.pool.query("SELECT count(*)::int AS n FROM name_reference WHERE address = $1", [top]);
  console.log(
    `seeded ${references} name references; the top owner ${top} owns ${rows.domain!.filter((d) => d.ownerId === top).length} names and is referenced by ${held[0].n}`,
  );
  const server = await forkServer(fileURLToPath(import.meta.url), [db.schemaName]);
  const size = `${Math.round(rows.domain!.length / 1000)}k`;
  const base = `http://127.0.0.1:${server.port}`;
  const table: Row[] = [];
  try {
    for (const q of questions(rows)) {
      if (ONLY && !q.name.includes(ONLY)) continue;
      const og = await measure(`${base}/api/omnigraph`, q.omnigraph, server.stats, {
        domains: size,
        endpoint: "omnigraph",
      });
      table.push(og);
      if (q.subgraph) {
        const sg = await measure(`${base}/subgraph`, q.subgraph, server.stats, { domains: size, endpoint: "subgraph" });
        table.push(sg, {
          domains: size,
          endpoint: "ratio",
          query: q.name,
          "CPU ms/req": Number((Number(og["CPU ms/req"]) / Number(sg["CPU ms/req"])).toFixed(2)),
        });
      }
    }
    if (!ONLY || "page size".includes(ONLY)) {
      for (const n of [10, 100, 1000])
        table.push(
          await measure(`${base}/api/omnigraph`, pageCase(n), server.stats, { domains: size, endpoint: "omnigraph" }),
        );
    }
  } finally {
    await server.stop();
    await db.drop();
  }
  return table;
}

async function main() {
  const table: Row[] = [];
  for (const size of SIZES) table.push(...(await benchSize(size)));
  console.log(
    `\n/api/omnigraph vs /subgraph, ${CACHE ? "cached" : "uncached"}, ${CONNECTIONS} connections, ${DURATION} s per query, loopback, PostgreSQL fixture; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} on ${availableParallelism()} cores`,
  );
  console.table(table);
}

serveOrRun(serveChild, main);
