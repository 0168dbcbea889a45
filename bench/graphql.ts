/*
 * npm run bench:graphql — /subgraph latency and throughput for five common queries over a seeded ~10,000-domain
 * index in PostgreSQL: p50/p99 and requests/s at 32 connections (autocannon), loopback only, bounded duration.
 *
 *   BENCH_DURATION=10 (seconds per query)  BENCH_CONNECTIONS=32  BENCH_SECOND_LEVEL=6500  SUBGRAPH_TEST_PG_URL=…
 *
 * The server runs in a child process so that autocannon does not compete with it for the event loop.
 */
import { fork, type ChildProcess } from "node:child_process";
import type { AddressInfo } from "node:net";
import { availableParallelism, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { serve } from "@hono/node-server";
import { drizzle } from "drizzle-orm/node-postgres";
import { Hono } from "hono";
import pg from "pg";
import { namehash } from "viem";
import { createSubgraphApp } from "../src/api/subgraph";
import { buildFixture, FIXTURE_HEAD } from "../test/subgraph-api/fixture";
import { createTestDatabase, PG_URL } from "../test/subgraph-api/pg";

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
}
// autocannon ships no types; this is the part of its API used here.
const autocannon = createRequire(import.meta.url)("autocannon") as (opts: {
  url: string;
  connections: number;
  duration: number;
  requests: AutocannonRequest[];
}) => Promise<AutocannonResult>;

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SECOND_LEVEL = Number(process.env.BENCH_SECOND_LEVEL ?? 6500);

/** Child mode: serve /subgraph over the given schema on a free loopback port and report it. */
async function serveChild(schemaName: string) {
  const pool = new pg.Pool({ connectionString: PG_URL, options: `-c search_path="${schemaName}"`, max: 16 });
  const app = new Hono();
  app.route(
    "/subgraph",
    createSubgraphApp({
      db: drizzle(pool),
      getMeta: async () => ({ block: FIXTURE_HEAD, deployment: "bench", hasIndexingErrors: false }),
    }),
  );
  const server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => {
    process.send!({ port: (server.address() as AddressInfo).port });
  });
  // The parent asks for our CPU time around each run: CPU per request does not depend on the machine's load.
  process.on("message", (m) => {
    if (m === "cpu") process.send!({ cpu: process.cpuUsage() });
  });
  process.on("disconnect", () => {
    // Let requests autocannon left in flight finish before the pool goes away.
    server.close();
    setTimeout(() => void pool.end().then(() => process.exit(0)), 2000);
  });
}

interface Case {
  name: string;
  bodies: string[];
}

function cases(rows: ReturnType<typeof buildFixture>): Case[] {
  const body = (query: string, variables: Record<string, unknown>) => JSON.stringify({ query, variables });
  const domains = rows.domain!;
  const named = domains.filter((d) => typeof d.name === "string" && (d.name as string).endsWith(".eth"));
  const pick = <T>(list: T[], n: number) => Array.from({ length: n }, (_, i) => list[(i * 7919) % list.length]!);
  const owners = [...new Set(domains.map((d) => d.ownerId as string))];
  const parents = domains.filter((d) => (d.subdomainCount as number) > 0).map((d) => d.id as string);
  const resolved = rows.resolver!;

  return [
    {
      name: "domain by name",
      bodies: pick(named, 500).map((d) =>
        body(
          `query($name: String!) { domains(where: { name: $name }) { id name labelName labelhash owner { id } resolver { id address } expiryDate registration { registrationDate expiryDate } } }`,
          { name: d.name },
        ),
      ),
    },
    {
      name: "domains of an owner",
      bodies: pick(owners, 500).map((o) =>
        body(
          `query($owner: String!) { domains(first: 100, where: { owner: $owner }, orderBy: name) { id name createdAt expiryDate } }`,
          { owner: o },
        ),
      ),
    },
    {
      name: "subdomains of a parent",
      // Mostly names with a few children; every tenth request is `eth`, with thousands.
      bodies: pick(parents, 500).map((p, i) =>
        body(
          `query($id: ID!) { domain(id: $id) { name subdomains(first: 100, orderBy: createdAt, orderDirection: desc) { id name owner { id } } } }`,
          { id: i % 10 === 0 ? namehash("eth") : p },
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
      bodies: pick(resolved, 500).map((r) =>
        body(
          `query($domain: ID!, $resolver: String!) { domain(id: $domain) { name resolver { texts coinTypes } } textChangeds(first: 1, where: { resolver: $resolver, key: "avatar" }, orderBy: blockNumber, orderDirection: desc) { value } }`,
          { domain: r.domainId, resolver: r.id },
        ),
      ),
    },
  ];
}

async function run(url: string, c: Case, duration: number) {
  let i = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    requests: [
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        setupRequest: (req) => ({ ...req, body: c.bodies[i++ % c.bodies.length] }),
      },
    ],
  });
  return result;
}

async function main() {
  const t0 = Date.now();
  const db = await createTestDatabase("sg_bench");
  let child: ChildProcess | undefined;
  try {
    const rows = buildFixture({ secondLevel: SECOND_LEVEL, accounts: 500 });
    await db.insert(rows);
    const events = Object.entries(rows)
      .filter(([t]) => !["domain", "account", "resolver", "registration", "wrapped_domain"].includes(t))
      .reduce((n, [, r]) => n + r.length, 0);
    console.log(
      `seeded ${rows.domain!.length} domains, ${rows.registration!.length} registrations, ${rows.resolver!.length} resolvers, ${events} events in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );

    child = fork(fileURLToPath(import.meta.url), ["--serve", db.schemaName], {
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    const port = await new Promise<number>((resolve, reject) => {
      child!.once("message", (m) => resolve((m as { port: number }).port));
      child!.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
    });
    const url = `http://127.0.0.1:${port}/subgraph`;

    // Check every query answers without errors before measuring it.
    for (const c of cases(rows)) {
      const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: c.bodies[0] });
      const json = (await res.json()) as { errors?: unknown };
      if (res.status !== 200 || json.errors) throw new Error(`${c.name}: ${res.status} ${JSON.stringify(json)}`);
    }

    const serverCpu = () =>
      new Promise<number>((resolve) => {
        child!.once("message", (m) => {
          const { user, system } = (m as { cpu: NodeJS.CpuUsage }).cpu;
          resolve((user + system) / 1000);
        });
        child!.send("cpu");
      });
    const table: Record<string, string | number>[] = [];
    for (const c of cases(rows)) {
      await run(url, c, 2); // warm-up: connections, plans, caches
      const cpu0 = await serverCpu();
      const r = await run(url, c, DURATION);
      const cpuPerRequest = ((await serverCpu()) - cpu0) / Math.max(1, r.requests.total);
      table.push({
        query: c.name,
        "p50 ms": r.latency.p50,
        "p99 ms": r.latency.p99,
        "max ms": r.latency.max,
        "req/s": Math.round(r.requests.average),
        requests: r.requests.total,
        "server CPU ms/req": Number(cpuPerRequest.toFixed(2)),
        "non-2xx": r.non2xx,
        errors: r.errors + r.timeouts,
      });
    }
    console.log(
      `\n/subgraph at ${CONNECTIONS} connections, ${DURATION} s per query (loopback, PostgreSQL ${PG_URL.replace(/\/\/.*@/, "//")}); load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")} on ${availableParallelism()} cores`,
    );
    console.table(table);
  } finally {
    if (child?.pid && child.connected) {
      const exited = new Promise((r) => child!.once("exit", r));
      child.disconnect();
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    }
    await db.drop();
  }
}

if (process.argv[2] === "--serve") {
  void serveChild(process.argv[3]!);
} else {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
