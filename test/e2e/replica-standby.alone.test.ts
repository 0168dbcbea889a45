import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import {
  indexerOptionsFor,
  type RunningIndexer,
  settledStatus,
  startIndexer,
  waitFor,
} from "../../harness/indexer-harness";
import { type PrimaryAndStandby, startPrimaryAndStandby } from "../../harness/private-postgres";

/*
 * An API replica (`ponder serve`) on a real PostgreSQL hot standby, as docs/operations.md "Deployment" runs it: the
 * indexer writes the primary, the replica reads a standby made with `pg_basebackup -R`. The replica answers as the
 * indexer does, runs no statement the standby refuses (its server log holds no ERROR), says it can serve through an
 * indexer restart, and answers 503 with a code within a second while its database is down, then recovers by itself.
 */

const TAG = "[replica-standby]";
const ROOT_CHAIN = 31337;
const DATABASE = "nameindex";
const OUTAGE_MS = 20_000;

let env: DevnetWithLabels;
let servers: PrimaryAndStandby;
let indexer: RunningIndexer;
let replica: { url: string; stop(): Promise<void> };

const post = (url: string, body: unknown) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

/** One request, with how long it took to answer. */
async function timed(request: () => Promise<Response>): Promise<{ status: number; body: unknown; ms: number }> {
  const started = performance.now();
  const res = await request();
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Ponder's /ready answers text
  }
  return { status: res.status, body, ms: performance.now() - started };
}

/** Polls `url` every 20 ms from `since` until it answers other than 200 (5 s at most), and returns that answer. */
async function firstAnswerNot200(url: string, since: number): Promise<Awaited<ReturnType<typeof timed>>> {
  for (;;) {
    const answer = await timed(() => fetch(url));
    if (answer.status !== 200 || performance.now() - since > 5_000) return answer;
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The requests compared between the indexer and the replica: every route family, at the head and at past blocks. */
async function answers(base: string, pastBlock: number, name: string): Promise<Record<string, unknown>> {
  const json = async (res: Promise<Response>) => {
    const r = await res;
    return { status: r.status, body: await r.json() };
  };
  return {
    subgraph: await json(
      post(`${base}/subgraph`, {
        query: "{ domains(first: 1000, orderBy: id) { id name owner { id } resolver { id } } }",
      }),
    ),
    subgraphPast: await json(
      post(`${base}/subgraph`, {
        query: `{ domains(first: 1000, orderBy: id, block: { number: ${pastBlock} }) { id name } _meta(block: { number: ${pastBlock} }) { block { number hash } } }`,
      }),
    ),
    subgraphGet: await json(
      fetch(
        `${base}/subgraph?query=${encodeURIComponent("{ registrations(first: 50, orderBy: id) { id expiryDate } }")}`,
      ),
    ),
    omnigraph: await json(post(`${base}/api/omnigraph`, { query: `{ domain(by: { name: "${name}" }) { id name } }` })),
    registrarActions: await json(fetch(`${base}/api/registrar-actions`)),
    nameTokens: await json(fetch(`${base}/api/name-tokens?name=${name}`)),
    records: await json(fetch(`${base}/api/resolve/records/${name}?addresses=60&texts=url`)),
    status: await json(fetch(`${base}/status`)),
  };
}

beforeAll(async () => {
  servers = await startPrimaryAndStandby(DATABASE);
  env = await startDevnetWithLabels({ seed: 7, names: 12 });
  indexer = await startIndexer(
    indexerOptionsFor(env, {
      plugins: ["subgraph", "protocol-acceleration", "registrars", "tokenscope"],
      database: "postgres",
      reuse: { databaseUrl: servers.primary.url(DATABASE) },
    }),
  );
  await settledStatus(indexer, 3_000, 300_000);
  replica = await indexer.startReplica({ DATABASE_URL: servers.standby.url(DATABASE) });
  await waitFor(async () => (await fetch(`${replica.url}/serving`)).status === 200, 60_000, "replica /serving");
}, 900_000);

afterAll(async () => {
  await indexer?.stop();
  await env?.stop();
  await servers?.stop();
});

describe("an API replica on a PostgreSQL hot standby", () => {
  it("answers every route as the indexer does, past blocks included", async () => {
    await servers.caughtUp();
    const status = (await (await fetch(`${indexer.url}/status`)).json()) as Record<
      string,
      { id: number; block: { number: number } }
    >;
    const head = Object.values(status).find((c) => c.id === ROOT_CHAIN)!.block.number;
    const domains = (await (
      await post(`${indexer.url}/subgraph`, {
        query: '{ domains(first: 100, where: { name_ends_with: ".eth" }, orderBy: name) { name } }',
      })
    ).json()) as {
      data: { domains: { name: string }[] };
    };
    // A second-level name whose label was healed (not an encoded `[labelhash]`).
    const name = domains.data.domains.find((d) => d.name.split(".").length === 2 && !d.name.startsWith("["))!.name;
    const pastBlock = Math.max(1, head - 5);
    const fromIndexer = await answers(indexer.url, pastBlock, name);
    const fromReplica = await answers(replica.url, pastBlock, name);
    for (const [route, answer] of Object.entries(fromIndexer))
      expect((answer as { status: number }).status, route).toBe(200);
    expect(fromReplica).toEqual(fromIndexer);
    console.log(
      `${TAG} ${Object.keys(fromIndexer).length} routes equal on the replica (head ${head}, past block ${pastBlock}, name ${name})`,
    );
  }, 120_000);

  it("says it can serve through an indexer restart, while Ponder's /ready says the indexer is catching up", async () => {
    const polls: { serving: number; ready: number }[] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        const [serving, ready] = await Promise.all([fetch(`${replica.url}/serving`), fetch(`${replica.url}/ready`)]);
        polls.push({ serving: serving.status, ready: ready.status });
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const started = Date.now();
    await indexer.process.stop();
    await indexer.restart();
    await indexer.process.ready();
    // The standby's view of `is_ready` follows the primary's: wait for the replica's /ready too.
    await waitFor(async () => (await fetch(`${replica.url}/ready`)).status === 200, 30_000, "replica /ready");
    polling = false;
    await poller;
    const servingOk = polls.filter((p) => p.serving === 200).length;
    const readyDown = polls.filter((p) => p.ready === 503).length;
    console.log(
      `${TAG} indexer restart (${((Date.now() - started) / 1000).toFixed(1)} s): replica /serving 200 in ${servingOk}/${polls.length} polls; Ponder's /ready 503 in ${readyDown}`,
    );
    expect(servingOk).toBe(polls.length);
    // The restart was seen: Ponder's flag went to 0 on the replica meanwhile.
    expect(readyDown).toBeGreaterThan(0);
  }, 180_000);

  it("answers 503 with a code within a second while the standby is down, and serves again within 2 s of its return", async () => {
    await servers.caughtUp();
    const before = await (
      await post(`${replica.url}/subgraph`, { query: "{ domains(first: 5, orderBy: id) { id } }" })
    ).json();
    // Timed from the moment the shutdown starts (it cuts the connections first), polling while it runs.
    const down = performance.now();
    const stopped = servers.standby.stop();
    const first = await firstAnswerNot200(`${replica.url}/serving`, down);
    const detectedMs = performance.now() - down;
    await stopped;
    expect(first.status).toBe(503);
    expect(first.body).toMatchObject({ serving: false, code: "DATABASE_UNAVAILABLE" });
    expect(detectedMs).toBeLessThan(1_000);

    // Every route that reads the database: 503 with a code, answered within a second.
    const routes = {
      "POST /subgraph": () => post(`${replica.url}/subgraph`, { query: "{ domains(first: 5) { id } }" }),
      "GET /subgraph": () => fetch(`${replica.url}/subgraph?query=${encodeURIComponent("{ domains { id } }")}`),
      "POST /api/omnigraph": () =>
        post(`${replica.url}/api/omnigraph`, { query: '{ domains(where: { name: "eth" }) { totalCount } }' }),
      "GET /api/registrar-actions": () => fetch(`${replica.url}/api/registrar-actions`),
      "GET /api/name-tokens": () => fetch(`${replica.url}/api/name-tokens?name=eth`),
      "GET /api/indexing-status": () => fetch(`${replica.url}/api/indexing-status`),
      "GET /amirealtime": () => fetch(`${replica.url}/amirealtime`),
      "GET /ready": () => fetch(`${replica.url}/ready`),
      "GET /status": () => fetch(`${replica.url}/status`),
      "GET /serving": () => fetch(`${replica.url}/serving`),
    };
    const lines: string[] = [];
    for (const [route, request] of Object.entries(routes)) {
      const r = await timed(request);
      lines.push(`${route} ${r.status} in ${Math.round(r.ms)} ms`);
      expect(r.status, route).toBe(503);
      expect(r.ms, route).toBeLessThan(1_000);
      const body = r.body as { code?: string; errors?: { extensions?: { code?: string } }[] };
      expect(body.code ?? body.errors?.[0]?.extensions?.code, route).toBe("DATABASE_UNAVAILABLE");
    }
    // Liveness is the process's, not the database's.
    expect((await fetch(`${replica.url}/health`)).status).toBe(200);
    // The outage was 20 s: every answer meanwhile stays a quick 503 (nothing queues on a dead connection).
    let slowest = 0;
    let polls = 0;
    while (performance.now() - down < OUTAGE_MS) {
      for (const route of ["GET /serving", "GET /ready", "POST /subgraph", "GET /api/registrar-actions"] as const) {
        const r = await timed(routes[route]);
        polls++;
        slowest = Math.max(slowest, r.ms);
        expect(r.status, route).toBe(503);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(slowest).toBeLessThan(1_000);

    await servers.standby.start();
    const back = performance.now();
    await waitFor(
      async () => (await fetch(`${replica.url}/serving`)).status === 200,
      10_000,
      "replica /serving again",
      20,
    );
    const recoveredMs = performance.now() - back;
    const after = await (
      await post(`${replica.url}/subgraph`, { query: "{ domains(first: 5, orderBy: id) { id } }" })
    ).json();
    expect(after).toEqual(before);
    console.log(
      `${TAG} standby down ${OUTAGE_MS / 1000} s: /serving 503 ${Math.round(detectedMs)} ms after the stop began; ${lines.join("; ")}; ${polls} more answers during the outage, all 503, slowest ${Math.round(slowest)} ms`,
    );
    console.log(`${TAG} standby back: /serving 200 after ${Math.round(recoveredMs)} ms, /subgraph answers as before`);
    expect(recoveredMs).toBeLessThan(2_000);
  }, 180_000);

  it("keeps serving from the standby while the primary is down; the indexer answers 503 and recovers", async () => {
    const down = performance.now();
    const stopped = servers.primary.stop();
    const first = await firstAnswerNot200(`${indexer.url}/serving`, down);
    const detectedMs = performance.now() - down;
    await stopped;
    expect(first.status).toBe(503);
    expect(detectedMs).toBeLessThan(1_000);
    const indexerQuery = await timed(() => post(`${indexer.url}/subgraph`, { query: "{ domains(first: 5) { id } }" }));
    expect(indexerQuery.status).toBe(503);
    expect(indexerQuery.ms).toBeLessThan(1_000);
    // The standby still answers reads: the replica serves on.
    const replicaServing = await timed(() => fetch(`${replica.url}/serving`));
    expect(replicaServing.status).toBe(200);
    const replicaQuery = await timed(() => post(`${replica.url}/subgraph`, { query: "{ domains(first: 5) { id } }" }));
    expect(replicaQuery.status).toBe(200);
    await new Promise((r) => setTimeout(r, 2_000));

    await servers.primary.start();
    const back = performance.now();
    await waitFor(
      async () => (await fetch(`${indexer.url}/serving`)).status === 200,
      10_000,
      "indexer /serving again",
      20,
    );
    const recoveredMs = performance.now() - back;
    console.log(
      `${TAG} primary down: indexer /serving 503 after ${Math.round(detectedMs)} ms, /subgraph ${indexerQuery.status} in ${Math.round(indexerQuery.ms)} ms; replica /serving ${replicaServing.status}, /subgraph ${replicaQuery.status}; primary back: indexer /serving 200 after ${Math.round(recoveredMs)} ms`,
    );
    expect(recoveredMs).toBeLessThan(2_000);
    expect(indexer.process.child.exitCode).toBeNull();
  }, 120_000);

  it("leaves no error in either server's log, and the replica ran no ANALYZE", async () => {
    const primaryErrors = servers.primary.errors();
    const standbyErrors = servers.standby.errors();
    const logDir = dirname(indexer.logFile);
    const replicaLogFile = readdirSync(logDir).find((f) => f.startsWith("replica-"))!;
    const replicaLog = readFileSync(join(logDir, replicaLogFile), "utf8");
    console.log(`${TAG} server logs: primary ${primaryErrors.length} ERROR lines, standby ${standbyErrors.length}`);
    expect(primaryErrors).toEqual([]);
    expect(standbyErrors).toEqual([]);
    expect(replicaLog).not.toMatch(/ANALYZE/);
  });
});
