/*
 * npm run bench:graphql — /subgraph latency and throughput for five common queries, each with a realistic mix of up
 * to 500 distinct variable sets: p50/p99 and requests/s at 32 connections (autocannon), loopback only, bounded
 * duration, with the query-result cache on (the default) and off. With the cache on, each query is measured twice:
 * "cold", one pass over its distinct variable sets (each a miss: what every distinct query costs once per new block),
 * then "steady", the timed run once each set is cached (what a busy dApp sees between blocks), with the share of
 * answers the cache gave (`hit %`, from the x-subgraph-cache header). Uncached: a 2 s warm-up, then the timed run.
 *
 *   BENCH_SOURCE=fixture (default): a seeded ~10,000-domain index in PostgreSQL, served by /subgraph alone in a child
 *     process (BENCH_SECOND_LEVEL=6500, SUBGRAPH_TEST_PG_URL=…).
 *   BENCH_SOURCE=devnet: a real devnet (BENCH_NAMES=10000) indexed by `ponder start` on PGlite (the subgraph
 *     plugin), benched through the indexer's own /subgraph once it is ready: an indexer with the cache, then one
 *     with SUBGRAPH_QUERY_CACHE_MB=0. With DEVNET_MANIFEST and LABELS_SERVICE_URL set, it indexes that running
 *     devnet and label service instead of starting its own (BENCH_NAMES is then only a label).
 *   BENCH_ANALYZE=on|off|both (devnet): with the tables' ANALYZE after the backfill (NAMEINDEX_ANALYZE=false: without).
 *   BENCH_AT=head|past|both (devnet; default head): each query as it is, and (past) the same query at a past block
 *     (`block: { number: <head - 1> }` on every root field: the entity history's read, docs/api.md), interleaved.
 *     BENCH_PAST_DEPTH=1,10,…: the past blocks, as depths below the head, each its own row; how many entities
 *     changed since each is printed (what decides how a block is read: docs/api.md, "/subgraph at a past block").
 *     BENCH_PAST_CHANGES=100,…: instead, the newest blocks after which at least that many domains changed.
 *   BENCH_CACHE=both|on|off  BENCH_DURATION=10 (seconds per query)  BENCH_CONNECTIONS=32  BENCH_ONLY=<name part>
 *   BENCH_CPU_PROF=<dir>: the fixture's server writes a V8 CPU profile there.
 *
 * The server runs in another process than autocannon, which would otherwise compete with it for the event loop.
 */
import { readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import { drizzle } from "drizzle-orm/node-postgres";
import { Hono } from "hono";
import pg from "pg";
import { namehash } from "viem";
import { startDevnetWithLabels } from "../harness/devnet-fixture";
import { startIndexer, waitFor } from "../harness/indexer-harness";
import type { Case } from "../harness/omnigraph-questions";
import { FIXTURE_HEAD } from "../harness/subgraph-fixture/fixture";
import { PG_URL } from "../harness/subgraph-fixture/pg";
import { createSubgraphApp, ponderHeadToken, QueryCache } from "../src/api/subgraph";
import {
  type FixtureRows,
  type ForkedServer,
  forkServer,
  seedFixture,
  serveOrRun,
  serveOverIpc,
} from "./lib/fixture-server";
import { atBlock, changedSince, newestBlockWithChanges } from "./lib/past-blocks";
import { treeCpuMs } from "./lib/process-cpu";
import { cases, indexSubjects, run, type Subjects } from "./lib/subgraph-queries";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SECOND_LEVEL = Number(process.env.BENCH_SECOND_LEVEL ?? 6500);
const SOURCE = (process.env.BENCH_SOURCE ?? "fixture") as "fixture" | "devnet";
const NAMES = Number(process.env.BENCH_NAMES ?? 10_000);
const CACHE_MODES = (process.env.BENCH_CACHE ?? "both") === "both" ? ["on", "off"] : [process.env.BENCH_CACHE!];
/** BENCH_ANALYZE=on|off|both (devnet): PGlite's tables analyzed after the backfill (the default), or not. */
const ANALYZE_MODES =
  (process.env.BENCH_ANALYZE ?? "on") === "both" ? ["on", "off"] : [process.env.BENCH_ANALYZE ?? "on"];
/** BENCH_AT=head|past|both (devnet): the queries at the head, at a past block, or each both ways in turn. */
const AT_MODES = (process.env.BENCH_AT ?? "head") === "both" ? ["head", "past"] : [process.env.BENCH_AT ?? "head"];
/** BENCH_PAST_DEPTH=1,10 (devnet, BENCH_AT=past|both): the past blocks, as depths below the head. */
const PAST_DEPTHS = (process.env.BENCH_PAST_DEPTH ?? "1").split(",").map(Number);
/** BENCH_PAST_CHANGES=100 (devnet): the past blocks as the newest ones with at least that many domains changed since. */
const PAST_CHANGES = process.env.BENCH_PAST_CHANGES?.split(",").map(Number);
/** BENCH_ONLY=registrations: only the queries whose name contains this. */
const ONLY = process.env.BENCH_ONLY;
/** The API's default budget (SUBGRAPH_QUERY_CACHE_MB). */
const CACHE_BYTES = 64 * 1024 * 1024;

/** Child mode: serve /subgraph over the given schema on a free loopback port, cached at /on and uncached at /off. */
async function serveChild(schemaName: string) {
  const pool = new pg.Pool({ connectionString: PG_URL, options: `-c search_path="${schemaName}"`, max: 16 });
  const db = drizzle(pool);
  const getMeta = async () => ({ block: FIXTURE_HEAD, deployment: "bench", hasIndexingErrors: false });
  const app = new Hono();
  // The cache reads its head as the API does, from `_ponder_checkpoint` (one shared read per event-loop turn).
  app.route(
    "/on/subgraph",
    createSubgraphApp({ db, getMeta, cache: new QueryCache({ maxBytes: CACHE_BYTES, head: ponderHeadToken(db) }) }),
  );
  app.route("/off/subgraph", createSubgraphApp({ db, getMeta }));
  const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () =>
    serveOverIpc(
      server,
      () => 0,
      () => pool.end(),
    ),
  );
}

function fixtureSubjects(rows: FixtureRows): Subjects {
  const domains = rows.domain!;
  return {
    names: domains
      .filter((d) => typeof d.name === "string" && (d.name as string).endsWith(".eth"))
      .map((d) => d.name as string),
    owners: [...new Set(domains.map((d) => d.ownerId as string))],
    parents: domains.filter((d) => (d.subdomainCount as number) > 0).map((d) => d.id as string),
    resolvers: rows.resolver!.map((r) => ({ id: r.id as string, domainId: r.domainId as string })),
    bigParent: namehash("eth"),
  };
}

type Row = Record<string, string | number>;

/** Benches every case against `url`; `cpuMs()` is the server's CPU time so far, in ms. */
async function benchAll(
  url: string,
  list: Case[],
  cpuMs: () => Promise<number>,
  label: Record<string, string>,
): Promise<Row[]> {
  // Check every query answers without errors before measuring it (uncached only: with the cache on, this would cache
  // one answer before the cold pass; there every answer is checked instead).
  for (const c of label.cache === "on" ? [] : list) {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: c.bodies[0],
    });
    const json = (await res.json()) as { errors?: unknown };
    if (res.status !== 200 || json.errors) throw new Error(`${c.name}: ${res.status} ${JSON.stringify(json)}`);
  }
  const table: Row[] = [];
  const measure = async (c: Case, pass: string, r: () => ReturnType<typeof run>) => {
    const cpu0 = await cpuMs();
    const result = await r();
    const cpuPerRequest = ((await cpuMs()) - cpu0) / Math.max(1, result.requests.total);
    const answered = Object.values(result.outcomes).reduce((a, b) => a + b, 0);
    const hits = (result.outcomes.hit ?? 0) + (result.outcomes.shared ?? 0);
    table.push({
      ...label,
      query: c.name,
      pass,
      "p50 ms": result.latency.p50,
      "p99 ms": result.latency.p99,
      "max ms": result.latency.max,
      "req/s": Math.round(result.requests.average),
      requests: result.requests.total,
      "hit %": label.cache === "on" ? Number(((100 * hits) / Math.max(1, answered)).toFixed(1)) : "-",
      "server CPU ms/req": Number(cpuPerRequest.toFixed(3)),
      "non-2xx": result.non2xx,
      errors: result.errors + result.timeouts,
      load: loadavg()[0].toFixed(1),
    });
  };
  for (const c of list) {
    if (ONLY && !c.name.includes(ONLY)) continue;
    if (label.cache === "on") {
      // Every distinct variable set once (misses, unless a block arrives), then the timed run with all of them cached.
      await measure(c, `cold (${new Set(c.bodies).size} distinct)`, () => run(url, c, DURATION, CONNECTIONS, true));
      await measure(c, "steady", () => run(url, c, DURATION, CONNECTIONS));
    } else {
      await run(url, c, 2, CONNECTIONS); // warm-up: connections, plans
      await measure(c, "uncached", () => run(url, c, DURATION, CONNECTIONS));
    }
  }
  return table;
}

async function benchFixture(): Promise<Row[]> {
  const { db, rows } = await seedFixture("sg_bench", SECOND_LEVEL);
  let server: ForkedServer | undefined;
  try {
    server = await forkServer(fileURLToPath(import.meta.url), [db.schemaName]);
    const serverCpu = async () => (await server!.stats()).cpuMs;
    const table: Row[] = [];
    for (const mode of CACHE_MODES) {
      table.push(
        ...(await benchAll(
          `http://127.0.0.1:${server.port}/${mode}/subgraph`,
          cases(fixtureSubjects(rows)),
          serverCpu,
          { cache: mode },
        )),
      );
    }
    return table;
  } finally {
    await server?.stop();
    await db.drop();
  }
}

async function benchDevnet(): Promise<Row[]> {
  const t0 = Date.now();
  const shared = process.env.DEVNET_MANIFEST && process.env.LABELS_SERVICE_URL;
  const env = shared
    ? {
        devnet: { manifestPath: process.env.DEVNET_MANIFEST! },
        labelsUrl: process.env.LABELS_SERVICE_URL!,
        stop: async () => {},
      }
    : await startDevnetWithLabels({ seed: 1, names: NAMES });
  console.log(
    shared
      ? `devnet at ${process.env.DEVNET_MANIFEST}`
      : `devnet of ${NAMES} names ready in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  );
  const table: Row[] = [];
  try {
    for (const mode of CACHE_MODES) {
      for (const analyze of ANALYZE_MODES) {
        const started = Date.now();
        const indexer = await startIndexer({
          manifestPath: env.devnet.manifestPath,
          labelsServiceUrl: env.labelsUrl,
          plugins: ["subgraph"],
          database: "pglite",
          extraEnv: {
            ...(mode === "off" ? { SUBGRAPH_QUERY_CACHE_MB: "0" } : {}),
            ...(analyze === "off" ? { NAMEINDEX_ANALYZE: "false" } : {}),
          },
        });
        try {
          await indexer.process.ready();
          // The tables are analyzed within a few seconds of /ready: measure after that.
          if (analyze === "on") {
            await waitFor(
              async () => readFileSync(indexer.logFile, "utf8").includes("PGlite: analyzed"),
              60_000,
              "ANALYZE",
            );
          }
          console.log(
            `indexer (cache ${mode}, analyze ${analyze}) ready in ${((Date.now() - started) / 1000).toFixed(0)} s`,
          );
          const url = `${indexer.url}/subgraph`;
          const pid = indexer.process.child.pid!;
          const label = { cache: mode, analyze };
          const list = cases(await indexSubjects(url));
          if (AT_MODES.includes("past")) {
            const { data } = (await (
              await fetch(url, {
                method: "POST",
                headers: { "content-type": "application/json" },
                body: JSON.stringify({ query: "{ _meta { block { number } } }" }),
              })
            ).json()) as { data: { _meta: { block: { number: number } } } };
            const head = data._meta.block.number;
            const pasts = PAST_CHANGES
              ? await Promise.all(PAST_CHANGES.map((n) => newestBlockWithChanges(url, head, n)))
              : PAST_DEPTHS.map((depth) => head - depth);
            for (const past of pasts) console.log(`block ${past}: ${await changedSince(url, past)}`);
            // Each query at the head, then the same at each past block: one sitting, side by side.
            const paired = list.flatMap((c) => [
              ...(AT_MODES.includes("head") ? [c] : []),
              ...pasts.map((past) => ({
                name: `${c.name} @ block ${past}`,
                bodies: c.bodies.map((b) => atBlock(b, past)),
              })),
            ]);
            table.push(...(await benchAll(url, paired, async () => treeCpuMs(pid), label)));
          } else {
            table.push(...(await benchAll(url, list, async () => treeCpuMs(pid), label)));
          }
        } finally {
          await indexer.stop();
        }
      }
    }
  } finally {
    await env.stop();
  }
  return table;
}

async function main() {
  const table = SOURCE === "devnet" ? await benchDevnet() : await benchFixture();
  const where =
    SOURCE === "devnet"
      ? `a ${NAMES}-name devnet indexed by ponder start on PGlite (its own /subgraph)`
      : `PostgreSQL ${PG_URL.replace(/\/\/.*@/, "//")} fixture`;
  console.log(
    `\n/subgraph at ${CONNECTIONS} connections, ${DURATION} s per query, loopback, ${where}; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")} on ${availableParallelism()} cores`,
  );
  console.table(table);
}

serveOrRun(serveChild, main);
