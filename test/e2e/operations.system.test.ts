import { once } from "node:events";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevnetWithLabels, rpc, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { getJson, projectRoot, type RunningIndexer, startIndexer, waitFor } from "../../harness/indexer-harness";
import { type PonderProcess, startPonder } from "../../scripts/lib/ponder-process";
import { findFreePort } from "../../scripts/lib/ports";
import { publicConfigSchema } from "../../src/api/config/public-config";
import type { ChainSnapshot, IndexingStatusResponse } from "../../src/api/shared/indexing-snapshot";
import { runningVersions } from "../../src/indexing/build-record";
import { CHROMIUM_ARGS, ensureChromium } from "../support/chromium";

const RANK: Record<ChainSnapshot["chainStatus"], number> = {
  "chain-queued": 0,
  "chain-backfill": 1,
  "chain-following": 2,
  "chain-completed": 3,
};

/** The notes' invariants, checked on every poll. */
function checkInvariants(status: IndexingStatusResponse): void {
  const { projectedAt, worstCaseDistance, snapshot } = status.realtimeProjection;
  expect(projectedAt).toBeGreaterThanOrEqual(snapshot.snapshotTime);
  expect(worstCaseDistance).toBe(projectedAt - snapshot.slowestChainIndexingCursor);
  expect(snapshot.strategy).toBe("omnichain");
  expect(snapshot.slowestChainIndexingCursor).toBe(snapshot.omnichainSnapshot.omnichainIndexingCursor);
  const chains = Object.values(snapshot.omnichainSnapshot.chains);
  for (const chain of chains) {
    const keys = Object.keys(chain).sort();
    if (chain.chainStatus === "chain-queued") expect(keys).toEqual(["chainStatus", "config"]);
    if (chain.chainStatus === "chain-backfill") {
      expect(keys).toEqual(["backfillEndBlock", "chainStatus", "config", "latestIndexedBlock"]);
      expect(chain.latestIndexedBlock.number).toBeLessThanOrEqual(chain.backfillEndBlock.number);
      expect(chain.latestIndexedBlock.number).toBeGreaterThanOrEqual(chain.config.startBlock.number);
    }
    if (chain.chainStatus === "chain-following") {
      expect(keys).toEqual(["chainStatus", "config", "latestIndexedBlock", "latestKnownBlock"]);
      expect(chain.config.configType).toBe("indefinite");
      expect(chain.latestIndexedBlock.number).toBeLessThanOrEqual(chain.latestKnownBlock.number);
    }
    if (chain.chainStatus === "chain-completed") {
      expect(keys).toEqual(["chainStatus", "config", "latestIndexedBlock"]);
      expect(chain.config.configType).toBe("definite");
    }
  }
  const started = chains.filter((c) => c.chainStatus !== "chain-queued") as Extract<
    ChainSnapshot,
    { latestIndexedBlock: unknown }
  >[];
  if (started.length > 0) {
    expect(snapshot.omnichainSnapshot.omnichainIndexingCursor).toBe(
      Math.max(...started.map((c) => c.latestIndexedBlock.timestamp)),
    );
  }
}

describe("operations on PostgreSQL: status, realtime, status page, replicas", () => {
  let env: DevnetWithLabels;
  let indexer: RunningIndexer;
  const polls: IndexingStatusResponse[] = [];
  /** The second `ponder start` on the indexer's schema (the last test), and its exit code once it gave up. */
  let second: PonderProcess | undefined;
  let secondExit: Promise<number | null> | undefined;

  beforeAll(async () => {
    env = await startDevnetWithLabels({ seed: 3, names: 12 });
    indexer = await startIndexer({
      manifestPath: env.devnet.manifestPath,
      labelsServiceUrl: env.labelsUrl,
      plugins: ["subgraph"],
      database: "postgres",
    });
    // Poll from the first moment so the transitions are seen, not inferred.
    await waitFor(
      async () => {
        const res = await fetch(`${indexer.url}/api/indexing-status`);
        if (res.status === 503) {
          expect(await res.json()).toEqual({ responseCode: "error" });
          return false;
        }
        const status = (await res.json()) as IndexingStatusResponse;
        polls.push(status);
        return status.realtimeProjection.snapshot.omnichainSnapshot.omnichainStatus === "omnichain-following";
      },
      240_000,
      "omnichain-following",
    );
    // The last test's second `ponder start` waits out the running indexer's lock (Ponder's heartbeat timeout, ~25 s)
    // before it fails: started here, on the following indexer's schema, it waits while the tests below run.
    const port = await findFreePort();
    second = startPonder({
      projectRoot,
      command: "start",
      port,
      schema: indexer.schema,
      env: { ...indexer.env, PORT: String(port) },
      logFile: `${indexer.logFile}.second`,
    });
    secondExit = once(second.child, "exit").then(([code]) => code as number | null);
  }, 400_000);

  afterAll(async () => {
    if (second && second.child.exitCode === null && second.child.signalCode === null) await second.kill();
    await indexer?.stop();
    await env?.stop();
  });

  it("keeps the notes' invariants at every poll and only moves chains forward", () => {
    expect(polls.length).toBeGreaterThan(0);
    const lastRank = new Map<string, number>();
    for (const poll of polls) {
      checkInvariants(poll);
      for (const [chainId, chain] of Object.entries(poll.realtimeProjection.snapshot.omnichainSnapshot.chains)) {
        expect(RANK[chain.chainStatus]).toBeGreaterThanOrEqual(lastRank.get(chainId) ?? 0);
        lastRank.set(chainId, RANK[chain.chainStatus]);
      }
    }
    const last = polls.at(-1)!.realtimeProjection.snapshot.omnichainSnapshot;
    expect(Object.keys(last.chains)).toEqual(["31337"]);
    expect(last.chains["31337"].chainStatus).toBe("chain-following");
  });

  it("serves a public configuration without secrets", async () => {
    const { status, body } = await getJson(`${indexer.url}/api/config`);
    expect(status).toBe(200);
    const config = publicConfigSchema.parse(body);
    expect(config).toMatchObject({
      indexedChainIds: [31337],
      databaseSchemaName: indexer.schema,
      isSubgraphCompatible: false,
      namespace: "devnet",
      plugins: ["subgraph"],
      labelSet: { labelSetId: "demo", labelSetVersion: 0 },
    });
    expect(config.versionInfo.runtime).toBe(process.versions.node);
    expect(config.versionInfo.indexingFramework).toBe("0.17.7");
    // The versions the build record names (an upgrade's refusal quotes them).
    expect(config.versionInfo).toMatchObject({
      nsIndexer: runningVersions().nameindex,
      indexingFramework: runningVersions().ponder,
    });
    const openApi = await getJson<{ openapi: string; paths: Record<string, unknown> }>(`${indexer.url}/openapi.json`);
    expect(openApi.status).toBe(200);
    expect(openApi.body.openapi).toBe("3.1.0");
    expect(Object.keys(openApi.body.paths)).toContain("/api/registrar-actions/{parentNode}");
    const cors = await fetch(`${indexer.url}/api/config`, { headers: { origin: "https://dapp.example" } });
    expect(cors.headers.get("access-control-allow-origin")).toBe("*");
    expect((await fetch(`${indexer.url}/api/config/`)).status).toBe(200);
    const text = JSON.stringify(body);
    expect(text).not.toContain("postgresql://");
    for (const chain of Object.values(env.devnet.manifest.chains)) expect(text).not.toContain(chain.rpcUrl);
  });

  it("flips /amirealtime to 503 when the chain stalls and back to 200 after a new block", async () => {
    const rootRpc = env.devnet.manifest.chains["31337"].rpcUrl;
    await rpc(rootRpc, "evm_mine");
    await waitFor(
      async () => (await fetch(`${indexer.url}/amirealtime?maxWorstCaseDistance=10`)).status === 200,
      30_000,
      "realtime after a block",
    );
    const ok = await getJson<{
      maxWorstCaseDistance: number;
      worstCaseDistance: number;
      slowestChainIndexingCursor: number;
    }>(`${indexer.url}/amirealtime?maxWorstCaseDistance=10`);
    expect(ok.body.maxWorstCaseDistance).toBe(10);
    expect(ok.body.worstCaseDistance).toBeLessThanOrEqual(10);
    // No new blocks: the distance grows with the wall clock until it passes the threshold.
    await waitFor(
      async () => (await fetch(`${indexer.url}/amirealtime?maxWorstCaseDistance=10`)).status === 503,
      30_000,
      "stall detected",
    );
    const stalled = await getJson<{ message: string }>(`${indexer.url}/amirealtime?maxWorstCaseDistance=10`);
    expect(stalled.body.message).toMatch(/worst-case distance is \d+ s, more than the requested 10 s/);
    await rpc(rootRpc, "evm_mine");
    await waitFor(
      async () => (await fetch(`${indexer.url}/amirealtime?maxWorstCaseDistance=10`)).status === 200,
      30_000,
      "realtime again",
    );
    expect((await fetch(`${indexer.url}/amirealtime`)).status).toBe(200);
  }, 120_000);

  it("serves Ponder's metrics and ours (handler time per plugin, healing) on /metrics", async () => {
    const text = await fetch(`${indexer.url}/metrics`).then((r) => r.text());
    const value = (name: string) => Number(text.match(new RegExp(`^${name} (\\S+)$`, "m"))?.[1] ?? Number.NaN);
    expect(text).toMatch(/^ponder_sync_block\{chain="devnetRoot"\} \d+/m);
    expect(value('nameindex_handler_events_total\\{plugin="subgraph"\\}')).toBeGreaterThan(0);
    expect(value('nameindex_handler_seconds_total\\{plugin="subgraph"\\}')).toBeGreaterThan(0);
    // The scenario registers .eth names, each healed once (the cache answers repeats).
    expect(value("nameindex_heal_calls_total")).toBeGreaterThan(0);
    expect(value("nameindex_heal_found_total")).toBeGreaterThan(0);
    expect(value("nameindex_heal_calls_total")).toBeGreaterThanOrEqual(value("nameindex_heal_cache_hits_total"));
  });

  it("serves the completed-events counter as a small JSON (/api/indexing-status/events), equal to /metrics' sum", async () => {
    const res = await fetch(`${indexer.url}/api/indexing-status/events`);
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(text.length).toBeLessThan(100);
    const body = JSON.parse(text) as { completedEvents: number; measuredAt: number };
    expect(Math.abs(body.measuredAt - Date.now())).toBeLessThan(60_000);
    const metrics = await fetch(`${indexer.url}/metrics`).then((r) => r.text());
    let total = 0;
    for (const m of metrics.matchAll(/^ponder_indexing_completed_events\{[^}]*\}\s+(\S+)/gm)) total += Number(m[1]);
    expect(total).toBeGreaterThan(0);
    expect(body.completedEvents).toBeGreaterThan(0);
    expect(body.completedEvents).toBeLessThanOrEqual(total);
    expect(metrics.length).toBeGreaterThan(text.length * 100);
  });

  it("rejects bad maxWorstCaseDistance values with 400 Invalid Input", async () => {
    for (const bad of ["abc", "-1", "1.5", "1e400"]) {
      const { status, body } = await getJson<{ message: string }>(
        `${indexer.url}/amirealtime?maxWorstCaseDistance=${bad}`,
      );
      expect(status, bad).toBe(400);
      expect(body.message).toBe("Invalid Input");
    }
    expect((await fetch(`${indexer.url}/amirealtime?maxWorstCaseDistance=`)).status).not.toBe(400);
  });

  it("shows the status page in a real browser with the chain at 100 % and no console errors", async () => {
    const browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
      page.on("pageerror", (e) => errors.push(e.message));
      const requested: string[] = [];
      page.on("request", (r) => requested.push(new URL(r.url()).pathname));
      await page.goto(`${indexer.url}/`);
      await page.waitForSelector('tr[data-chain-id="31337"]');
      await page.waitForFunction(() => document.querySelector("#omnichain-status")?.textContent === "following");
      const bar = await page.getAttribute('tr[data-chain-id="31337"] .bar', "aria-valuenow");
      expect(Number(bar)).toBe(100);
      expect(await page.textContent('tr[data-chain-id="31337"]')).toContain("following");
      // events/s from two readings of the small counter, never from the whole /metrics.
      await page.waitForFunction(
        () => /^\d[\d,]*$/.test(document.querySelector("#rate")?.textContent ?? ""),
        undefined,
        { timeout: 30_000 },
      );
      expect(requested).toContain("/api/indexing-status/events");
      expect(requested).not.toContain("/metrics");
      const artifacts = join(projectRoot, "test-artifacts");
      mkdirSync(artifacts, { recursive: true });
      await page.screenshot({ path: join(artifacts, "status-page.png"), fullPage: true });
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 180_000);

  it("answers the same from an API-only replica (ponder serve) on the same database", async () => {
    const replica = await indexer.startReplica();
    try {
      const [a, b] = await Promise.all([getJson(`${indexer.url}/api/config`), getJson(`${replica.url}/api/config`)]);
      expect(b.status).toBe(200);
      expect(b.body).toEqual({ ...(a.body as object), publicApiUrl: replica.url, adminUrl: `${replica.url}/` });
      const stripClock = (s: IndexingStatusResponse) => s.realtimeProjection.snapshot.omnichainSnapshot;
      const [sa, sb] = await Promise.all([
        getJson<IndexingStatusResponse>(`${indexer.url}/api/indexing-status`),
        getJson<IndexingStatusResponse>(`${replica.url}/api/indexing-status`),
      ]);
      expect(sb.status).toBe(200);
      expect(stripClock(sb.body)).toEqual(stripClock(sa.body));
      const query = JSON.stringify({ query: "{ domains(first: 1000, orderBy: id) { id name owner { id } } }" });
      const post = (url: string) =>
        fetch(`${url}/subgraph`, { method: "POST", headers: { "content-type": "application/json" }, body: query }).then(
          (r) => r.json(),
        );
      const [qa, qb] = await Promise.all([post(indexer.url), post(replica.url)]);
      expect((qa as { data: { domains: unknown[] } }).data.domains.length).toBeGreaterThan(5);
      expect(qb).toEqual(qa);
      // The replica indexes nothing: it reads the indexer's counter (INDEXER_URL's /metrics).
      const events = await getJson<{ completedEvents: number }>(`${replica.url}/api/indexing-status/events`);
      expect(events.status).toBe(200);
      expect(events.body.completedEvents).toBeGreaterThan(0);
    } finally {
      await replica.stop();
    }
  }, 180_000);

  it("a second `ponder start` on the schema gives up on its lock and leaves the running indexer's schema as it was", async () => {
    // It waits out the lock (Ponder's heartbeat timeout, ~25 s), then fails. Ponder's shutdown used to unlock the schema
    // regardless (letting a third start take it over from the running indexer); the ponder patch unlocks, and records
    // an error for _meta.hasIndexingErrors, only from the app that holds the lock.
    // Started at the end of beforeAll, while the indexer was following, as it is now.
    const code = await secondExit!;
    expect(code).not.toBe(0);
    expect(readFileSync(`${indexer.logFile}.second`, "utf8")).toMatch(/Failed to acquire lock on schema/);
    const meta = new pg.Client({ connectionString: indexer.env.DATABASE_URL });
    await meta.connect();
    try {
      const { rows } = await meta.query(`SELECT value FROM "${indexer.schema}"."_ponder_meta" WHERE key = 'app'`);
      expect(rows[0].value).toMatchObject({ is_locked: 1 });
      expect(rows[0].value.indexing_error).toBeUndefined();
    } finally {
      await meta.end();
    }
    const res = await fetch(`${indexer.url}/subgraph`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ _meta { hasIndexingErrors } }" }),
    });
    expect(await res.json()).toEqual({ data: { _meta: { hasIndexingErrors: false } } });
  }, 120_000);
});
