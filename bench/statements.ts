/*
 * npm run bench:statements — what /subgraph at a past block costs PostgreSQL, statement by statement. A devnet
 * (BENCH_NAMES=10000) is indexed by `ponder start` on PostgreSQL (the subgraph plugin); bench:graphql's five queries,
 * BENCH_VARIANTS=5 variable sets each, are asked in this process at the head and at past blocks: the newest blocks
 * after which at least BENCH_PAST_CHANGES=10,100,1000 domains changed (what decides how a block is read: docs/api.md,
 * "/subgraph at a past block"). Each request's statements are recorded once it is warm (the per-head reads, such as
 * the head and the count of versions above the block, are then kept), and BENCH_ROUNDS=20 rounds, interleaved over
 * the queries and blocks, time the request (GraphQL and statements on one connection, no HTTP) and run its
 * statements again under EXPLAIN ANALYZE (planning + execution, as PostgreSQL counts them). Medians over the rounds,
 * each query at a block as a ratio to the same query at the head.
 *
 * bench:graphql answers whether a client sees the 2× goal; this one says which statement does not meet it, and holds
 * still where 32 connections on a loaded machine do not (PostgreSQL's own timings leave out the scheduler's noise).
 * BENCH_PRINT_SQL=1 prints each query's statements at each block.
 */
import { loadavg } from "node:os";
import { type SQL, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { PgDialect } from "drizzle-orm/pg-core";
import pg from "pg";
import { createPublicClient, http } from "viem";
import { startDevnetWithLabels } from "../harness/devnet-fixture";
import { startIndexer, waitFor } from "../harness/indexer-harness";
import { createSubgraphServer, type SubgraphDb } from "../src/api/subgraph";
import { rowsOf } from "../src/lib/sql-rows";
import { median } from "./lib/median";
import { atBlock, changedSince, newestBlockWithChanges } from "./lib/past-blocks";
import { cases, indexSubjects } from "./lib/subgraph-queries";

const NAMES = Number(process.env.BENCH_NAMES ?? 10_000);
const VARIANTS = Number(process.env.BENCH_VARIANTS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const PAST_CHANGES = (process.env.BENCH_PAST_CHANGES ?? "10,100,1000").split(",").map(Number);
/** As the API reads it: its default (5,000) lets it choose the read form; 0 reads the history alone. */
const LIVE_TABLES = process.env.SUBGRAPH_HISTORY_LIVE_TABLES !== "false";
/** BENCH_PRINT_SQL=1: each query's statements at each block (its first variable set), as PostgreSQL receives them. */
const PRINT_SQL = process.env.BENCH_PRINT_SQL === "1";
const ROOT_CHAIN = 31337;

interface Subject {
  query: string;
  block: number;
  label: string;
  bodies: string[];
  statements: SQL[][];
  sqlMs: number[];
  planMs: number[];
  requestMs: number[];
}

async function main() {
  const t0 = Date.now();
  const env = await startDevnetWithLabels({ seed: 1, names: NAMES });
  console.log(`devnet of ${NAMES} names ready in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  const indexer = await startIndexer({
    manifestPath: env.devnet.manifestPath,
    labelsServiceUrl: env.labelsUrl,
    plugins: ["subgraph"],
    database: "postgres",
  });
  const pool = new pg.Pool({
    connectionString: indexer.env.DATABASE_URL,
    options: `-c search_path="${indexer.schema}"`,
    max: 1,
  });
  try {
    await indexer.process.ready();
    const rootRpc = env.devnet.manifest.chains[String(ROOT_CHAIN)]!.rpcUrl;
    const publicClient = createPublicClient({ transport: http(rootRpc) });
    const chainHead = Number(await publicClient.getBlockNumber());
    const url = `${indexer.url}/subgraph`;
    // /ready comes at the finalized block; the blocks after it are indexed live.
    await waitFor(async () => (await metaNumber(url)) === chainHead, 120_000, `the index at block ${chainHead}`);
    console.log(`indexed to block ${chainHead} in ${((Date.now() - t0) / 1000).toFixed(0)} s (PostgreSQL)`);

    const db = drizzle(pool);
    let recording: SQL[] | undefined;
    const recorded: SubgraphDb = {
      execute(query: SQL) {
        recording?.push(query);
        return db.execute(query);
      },
    };
    const { app } = createSubgraphServer({
      db: recorded,
      rootChain: { id: ROOT_CHAIN, rpcUrl: rootRpc, historyBlocks: null, liveTables: LIVE_TABLES },
    });
    const ask = async (body: string) => {
      const res = await app.request("/", { method: "POST", headers: { "content-type": "application/json" }, body });
      const answer = (await res.json()) as { errors?: { message: string }[] };
      if (res.status !== 200 || answer.errors) throw new Error(`${res.status}: ${JSON.stringify(answer.errors)}`);
    };

    const pasts = await Promise.all(PAST_CHANGES.map((n) => newestBlockWithChanges(url, chainHead, n)));
    const labels = new Map<number, string>([[chainHead, "head"]]);
    for (const past of pasts) {
      const changed = await changedSince(url, past);
      labels.set(past, changed.replace(/ changed since$/, ""));
      console.log(`block ${past}: ${changed}`);
    }
    const subjects: Subject[] = [];
    for (const c of cases(await indexSubjects(url))) {
      const bodies = c.bodies.slice(0, VARIANTS);
      for (const block of [chainHead, ...new Set(pasts)]) {
        subjects.push({
          query: c.name,
          block,
          label: labels.get(block)!,
          bodies: block === chainHead ? bodies : bodies.map((b) => atBlock(b, block)),
          statements: [],
          sqlMs: [],
          planMs: [],
          requestMs: [],
        });
      }
    }
    for (const s of subjects) {
      for (const body of s.bodies) {
        await ask(body);
        recording = [];
        await ask(body);
        s.statements.push(recording);
        recording = undefined;
      }
    }

    if (PRINT_SQL) {
      const dialect = new PgDialect();
      for (const s of subjects) {
        console.log(`\n${s.query} at ${s.block === chainHead ? "the head" : `block ${s.block}`}:`);
        for (const statement of s.statements[0]!) console.log(`  ${dialect.sqlToQuery(statement).sql}`);
      }
    }

    for (let round = 0; round < ROUNDS; round++) {
      for (const s of round % 2 ? [...subjects].reverse() : subjects) {
        let requestMs = 0;
        let [sqlMs, planMs] = [0, 0];
        for (const [i, body] of s.bodies.entries()) {
          const started = performance.now();
          await ask(body);
          requestMs += performance.now() - started;
          for (const statement of s.statements[i]!) {
            const timing = await explain(db, statement);
            sqlMs += timing.planning + timing.execution;
            planMs += timing.planning;
          }
        }
        s.requestMs.push(requestMs / s.bodies.length);
        s.sqlMs.push(sqlMs / s.bodies.length);
        s.planMs.push(planMs / s.bodies.length);
      }
    }
    printTable(subjects, chainHead);
  } finally {
    await pool.end();
    await indexer.stop();
    await env.stop();
  }
}

async function metaNumber(url: string): Promise<number | undefined> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "{ _meta { block { number } } }" }),
  });
  const body = (await res.json()) as { data?: { _meta: { block: { number: number } | null } } };
  return body.data?._meta.block?.number;
}

/** One statement's planning and execution, as PostgreSQL times them (no per-node timing, which would add its own). */
async function explain(
  db: { execute(q: SQL): Promise<unknown> },
  statement: SQL,
): Promise<{ planning: number; execution: number }> {
  const [row] = rowsOf(await db.execute(sql`EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ${statement}`));
  const [plan] = row!["QUERY PLAN"] as { "Planning Time": number; "Execution Time": number }[];
  return { planning: plan!["Planning Time"], execution: plan!["Execution Time"] };
}

function printTable(subjects: Subject[], head: number) {
  const atHead = new Map(subjects.filter((s) => s.block === head).map((s) => [s.query, s]));
  const ratio = (value: number, base: number) => `${(value / base).toFixed(2)}×`;
  console.log(
    `\n${ROUNDS} rounds, ${VARIANTS} variable sets a query, one connection; load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}; SUBGRAPH_HISTORY_LIVE_TABLES=${LIVE_TABLES}`,
  );
  console.log(
    "| query | block | changed since | statements | SQL ms (p50) | of which planning | SQL × head | request ms (p50) | request × head |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const s of subjects) {
    const base = atHead.get(s.query)!;
    const statements = s.statements.reduce((n, list) => n + list.length, 0) / s.statements.length;
    const [sqlMs, requestMs] = [median(s.sqlMs), median(s.requestMs)];
    console.log(
      `| ${s.query} | ${s.block === head ? `${s.block} (head)` : s.block} | ${s.block === head ? "" : s.label} | ${statements.toFixed(1)} | ${sqlMs.toFixed(2)} | ${median(s.planMs).toFixed(2)} | ${ratio(sqlMs, median(base.sqlMs))} | ${requestMs.toFixed(2)} | ${ratio(requestMs, median(base.requestMs))} |`,
    );
  }
}

await main();
