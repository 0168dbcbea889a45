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
 * The Omnigraph's questions are the cookbook's own: each is read by id from the peer's examples.json at run time
 * (../shared/peer/omnigraph/, or PEER_OMNIGRAPH_DIR; never copied here), asked with the fixture's subjects for its
 * variables (the cookbook's other variables, such as find-domains' order, kept). The fixture has no chain to resolve
 * on, so every `resolve { … }` selection is taken out of the cookbook's document (graphql's AST `visit`) before it is
 * asked: domain-by-name is asked without its profile. The cookbook's resolution-only questions (records, profile,
 * primary names) are left out: resolution costs RPC calls, not SQL (docs/benchmarks.md). The /subgraph forms and the
 * two questions the cookbook does not ask (an account's nameReferences, and the page-size series) are written in
 * harness/omnigraph-questions.ts and here.
 */
import { availableParallelism, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { drizzle } from "drizzle-orm/node-postgres";
import { Hono } from "hono";
import pg from "pg";
import { body, type Case, omnigraphQuestions, topOwner } from "../harness/omnigraph-questions";
import { FIXTURE_HEAD, FIXTURE_NAMESPACE as NAMESPACE } from "../harness/subgraph-fixture/fixture";
import { PG_URL } from "../harness/subgraph-fixture/pg";
import { omnigraphRoutes } from "../src/api/omnigraph";
import { ResolutionService } from "../src/api/shared/resolution/service";
import { createSubgraphApp, ponderHeadToken, QueryCache } from "../src/api/subgraph";
import { forkServer, type ServerStats, seedFixture, serveOrRun, serveOverIpc } from "./lib/fixture-server";
import { run } from "./lib/subgraph-queries";

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
    for (const q of omnigraphQuestions(rows)) {
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
