import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import client from "prom-client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { IndexingFactsGatherer } from "../../src/api/indexing-status/gather";
import { PreparedResponses } from "../../src/api/indexing-status/responses";
import { amIRealtimeRoutes, indexingStatusRoutes } from "../../src/api/indexing-status/route";
import { IndexingStatusService } from "../../src/api/indexing-status/service";
import { syncGaugeReader } from "../../src/api/indexing-status/sync-gauges";
import type { ChainFacts, IndexingStatusResponse } from "../../src/api/shared/indexing-snapshot";
import { buildConfig } from "../../src/config/app-config";

const ref = (number: number, timestamp: number) => ({ number, timestamp });
const facts = (latest: number): ChainFacts[] => [
  {
    chainId: 31337,
    startBlock: ref(1, 1_000),
    latestIndexedBlock: ref(latest, 1_000 + latest),
    backfillEndBlock: ref(100, 1_100),
    historicalComplete: false,
  },
];

/** A gatherer whose gathers finish only when the test says so. */
function controlledGatherer() {
  const pending: { resolve: (f: ChainFacts[] | undefined) => void; reject: (e: Error) => void }[] = [];
  const gatherer: Pick<IndexingFactsGatherer, "gather"> = {
    gather: () => new Promise((resolve, reject) => pending.push({ resolve, reject })),
  };
  return { gatherer, pending };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

afterEach(() => {
  vi.useRealTimers();
  delete (globalThis as { PONDER_COMMON?: unknown }).PONDER_COMMON;
});

describe("IndexingStatusService", () => {
  it("makes only the requests before the first gather wait, and they share it", async () => {
    const { gatherer, pending } = controlledGatherer();
    const service = new IndexingStatusService(gatherer, () => 5_000_000);
    const waiting = Promise.all([service.snapshot(), service.snapshot(), service.snapshot()]);
    await tick();
    expect(pending).toHaveLength(1);
    pending[0].resolve(facts(10));
    const snapshots = await waiting;
    expect(snapshots[0]?.slowestChainIndexingCursor).toBe(1_010);
    expect(new Set(snapshots).size).toBe(1);
  });

  it("serves the stale snapshot at once while one refresh runs, then the new one", async () => {
    let now = 5_000_000;
    const { gatherer, pending } = controlledGatherer();
    const service = new IndexingStatusService(gatherer, () => now, 1_000);
    const first = service.snapshot();
    await tick();
    pending[0].resolve(facts(10));
    await first;
    now += 1_500;
    // Many pollers after the snapshot went stale: none waits, one refresh starts.
    const stale = await Promise.all(Array.from({ length: 50 }, () => service.snapshot()));
    expect(stale.every((s) => s?.slowestChainIndexingCursor === 1_010)).toBe(true);
    expect(pending).toHaveLength(2);
    pending[1].resolve(facts(20));
    await tick();
    expect((await service.snapshot())?.slowestChainIndexingCursor).toBe(1_020);
    expect((await service.snapshot())?.snapshotTime).toBe(5_001);
    expect(pending).toHaveLength(2);
  });

  it("keeps the previous snapshot when a refresh fails, and fails the first request when the first gather does", async () => {
    let now = 5_000_000;
    const { gatherer, pending } = controlledGatherer();
    const service = new IndexingStatusService(gatherer, () => now, 1_000);
    const first = service.snapshot();
    await tick();
    pending[0].reject(new Error("rpc down"));
    await expect(first).rejects.toThrow("rpc down");

    const second = service.snapshot();
    await tick();
    pending[1].resolve(facts(10));
    await second;
    now += 2_000;
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect((await service.snapshot())?.slowestChainIndexingCursor).toBe(1_010);
    pending[2].reject(new Error("rpc down again"));
    await tick();
    expect((await service.snapshot())?.slowestChainIndexingCursor).toBe(1_010);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("rpc down again"));
    warn.mockRestore();
  });

  it("refreshes on its own once started, so pollers find a fresh snapshot", async () => {
    vi.useFakeTimers();
    let gathers = 0;
    const service = new IndexingStatusService({ gather: async () => facts(++gathers) }, () => Date.now(), 1_000);
    const stop = service.start();
    await vi.advanceTimersByTimeAsync(3_050);
    expect(gathers).toBe(4);
    expect((await service.snapshot())?.slowestChainIndexingCursor).toBe(1_004);
    stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(gathers).toBe(4);
  });
});

describe("prepared responses", () => {
  it("prepares once per snapshot, second and key", () => {
    const responses = new PreparedResponses<string>();
    const snapshot = {} as never;
    const prepare = vi.fn(() => "body");
    responses.get(snapshot, 10, "a", prepare);
    responses.get(snapshot, 10, "a", prepare);
    expect(prepare).toHaveBeenCalledTimes(1);
    responses.get(snapshot, 10, "b", prepare);
    responses.get(snapshot, 11, "a", prepare);
    responses.get({} as never, 11, "a", prepare);
    expect(prepare).toHaveBeenCalledTimes(4);
  });
});

describe("routes on a cached snapshot", () => {
  async function routes(latest: number | undefined) {
    const service = new IndexingStatusService({
      gather: async () => (latest === undefined ? undefined : facts(latest)),
    });
    return { status: indexingStatusRoutes(service), realtime: amIRealtimeRoutes(service) };
  }

  it("re-projects to each request's second: the distance grows while the snapshot stays", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(1_050_000);
    const { status, realtime } = await routes(10);
    const a = (await (await status.request("/")).json()) as IndexingStatusResponse;
    expect(a.realtimeProjection).toMatchObject({ projectedAt: 1_050, worstCaseDistance: 40 });
    vi.setSystemTime(1_051_500);
    const res = await status.request("/");
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const b = (await res.json()) as IndexingStatusResponse;
    expect(b.realtimeProjection).toMatchObject({ projectedAt: 1_051, worstCaseDistance: 41 });
    expect(b.realtimeProjection.snapshot).toEqual(a.realtimeProjection.snapshot);

    const ok = await realtime.request("/?maxWorstCaseDistance=41");
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({
      maxWorstCaseDistance: 41,
      slowestChainIndexingCursor: 1_010,
      worstCaseDistance: 41,
    });
    const late = await realtime.request("/?maxWorstCaseDistance=40");
    expect(late.status).toBe(503);
    expect(((await late.json()) as { message: string }).message).toMatch(
      /worst-case distance is 41 s, more than the requested 40 s/,
    );
    // Absent and empty both mean the default of 60; the same key answers both.
    expect(await (await realtime.request("/?maxWorstCaseDistance=")).json()).toMatchObject({
      maxWorstCaseDistance: 60,
    });
    expect(await (await realtime.request("/")).json()).toMatchObject({ maxWorstCaseDistance: 60 });
    for (const bad of ["abc", "-1", "1.5"]) {
      const res400 = await realtime.request(`/?maxWorstCaseDistance=${bad}`);
      expect(res400.status, bad).toBe(400);
      expect(await res400.json()).toMatchObject({ message: "Invalid Input" });
    }
  });

  it("answers 503 while no status exists", async () => {
    const { status, realtime } = await routes(undefined);
    const res = await status.request("/");
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ responseCode: "error" });
    expect((await realtime.request("/")).status).toBe(503);
    expect((await realtime.request("/?maxWorstCaseDistance=x")).status).toBe(400);
  });
});

describe("sync gauges", () => {
  function ponderMetrics() {
    const registry = new client.Registry();
    const gauge = (name: string) =>
      new client.Gauge({ name, help: name, labelNames: ["chain"], registers: [registry] });
    const metrics = {
      ponder_historical_total_blocks: gauge("ponder_historical_total_blocks"),
      ponder_sync_block: gauge("ponder_sync_block"),
      ponder_sync_block_timestamp: gauge("ponder_sync_block_timestamp"),
    };
    metrics.ponder_historical_total_blocks.set({ chain: "devnetRoot" }, 80);
    metrics.ponder_sync_block.set({ chain: "devnetRoot" }, 120);
    metrics.ponder_sync_block_timestamp.set({ chain: "devnetRoot" }, 1_795_297_536);
    return { registry, metrics };
  }

  it("reads Ponder's gauges in process when this process indexes, without HTTP", async () => {
    const { metrics } = ponderMetrics();
    (globalThis as { PONDER_COMMON?: unknown }).PONDER_COMMON = { options: { command: "start" }, metrics };
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const gauges = await syncGaugeReader("http://127.0.0.1:1/metrics")();
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
    expect(Object.fromEntries(gauges.totalBlocks)).toEqual({ devnetRoot: 80 });
    expect(Object.fromEntries(gauges.syncBlock)).toEqual({ devnetRoot: 120 });
    expect(Object.fromEntries(gauges.syncTimestamp)).toEqual({ devnetRoot: 1_795_297_536 });
  });

  it("scrapes the indexer's /metrics on an API replica (ponder serve)", async () => {
    const { registry, metrics } = ponderMetrics();
    (globalThis as { PONDER_COMMON?: unknown }).PONDER_COMMON = { options: { command: "serve" }, metrics: {} };
    const server = createServer(async (_req, res) => res.end(await registry.metrics()));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
      const gauges = await syncGaugeReader(url)();
      expect(Object.fromEntries(gauges.syncBlock)).toEqual({ devnetRoot: 120 });
      expect(Object.fromEntries(gauges.totalBlocks)).toEqual({ devnetRoot: 80 });
      metrics.ponder_sync_block.set({ chain: "devnetRoot" }, 121);
      expect(Object.fromEntries((await syncGaugeReader(url)()).syncBlock)).toEqual({ devnetRoot: 121 });
      // Without an indexer to ask, the facts from the database stand alone.
      expect((await syncGaugeReader(undefined)()).syncBlock.size).toBe(0);
    } finally {
      server.close();
    }
  });
});

describe("gathering facts from the database", () => {
  const config = buildConfig({ NAMESPACE: "mainnet", PLUGINS: "subgraph", RPC_URL_1: "https://eth.example" });
  const noGauges = async () => ({ totalBlocks: new Map(), syncBlock: new Map(), syncTimestamp: new Map() });

  it("reports no status while the indexer's tables do not exist yet", async () => {
    const missing = Object.assign(new Error('relation "s._ponder_checkpoint" does not exist'), { code: "42P01" });
    const gatherer = new IndexingFactsGatherer(config, async () => Promise.reject(missing), noGauges);
    expect(await gatherer.gather()).toBeUndefined();
  });

  it("fails the gather on any other database error rather than reporting that no status exists", async () => {
    const broken = Object.assign(new Error("connection terminated"), { code: "57P01" });
    const gatherer = new IndexingFactsGatherer(config, async () => Promise.reject(broken), noGauges);
    await expect(gatherer.gather()).rejects.toThrow("connection terminated");
  });
});
