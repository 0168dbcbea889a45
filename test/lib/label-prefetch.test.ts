import { type Hex, keccak256, numberToHex, parseAbiItem, toEventSelector, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LabelHealer } from "../../src/lib/healing/healer";
import { LabelPrefetcher, nextWindow } from "../../src/lib/healing/prefetch";
import type { LabelSource } from "../../src/lib/healing/sources";
import { startJsonRpcStub } from "../support/json-rpc-stub";

/*
 * The label prefetch reads the registries' NewOwner logs ahead of the handlers and heals their labelhashes in
 * batches. What must hold: every NewOwner labelhash in the window reaches the label source, each once, in batches,
 * and the handlers' heal() calls are then cache hits with the verified labels. The chain here is a JSON-RPC stub
 * serving raw logs, including another event's log the request's topic filter must have excluded.
 */

const NEW_OWNER_TOPIC = toEventSelector(
  parseAbiItem("event NewOwner(bytes32 indexed node, bytes32 indexed label, address owner)"),
);
const REGISTRY = "0x00000000000c2e074ec69a0dfb2997ba6c7d2e1e";
const labels = Array.from({ length: 3000 }, (_, i) => `name${i}`);
const labelhash = (label: string) => keccak256(toHex(label));

let stub: Awaited<ReturnType<typeof startJsonRpcStub>>;
let rpcUrl: string;
const getLogsParams: unknown[] = [];

beforeAll(async () => {
  stub = await startJsonRpcStub((request) => {
    if (request.method === "eth_blockNumber") return { result: numberToHex(100) };
    if (request.method !== "eth_getLogs") return { result: null };
    const filter = request.params[0] as { topics?: Hex[] };
    getLogsParams.push(filter);
    const topic0 = filter.topics?.[0];
    // Each label twice (a name registered and later re-owned): one lookup each all the same.
    const logs = [...labels, ...labels].map((label, i) => ({
      address: REGISTRY,
      topics: [NEW_OWNER_TOPIC, keccak256(toHex(`parent${i}`)), labelhash(label)],
      data: "0x" + "00".repeat(32),
      blockNumber: numberToHex(1 + (i % 90)),
      logIndex: numberToHex(i),
    }));
    return { result: logs.filter((log) => topic0 === undefined || log.topics[0] === topic0) };
  });
  rpcUrl = stub.url;
});
afterAll(() => stub.close());

describe("LabelPrefetcher", () => {
  it("heals every NewOwner labelhash of the window once, in batches, so the handlers' heals are cache hits", async () => {
    const known = new Map(labels.map((label) => [labelhash(label), label] as const));
    const batches: Hex[][] = [];
    const source: LabelSource = {
      description: "test source",
      maxBatch: 1000,
      lookup: async () => {
        throw new Error("a single lookup: the prefetch should have healed this");
      },
      lookupMany: async (hashes) => {
        batches.push(hashes);
        return new Map(hashes.map((h) => [h, known.get(h) ?? null] as const));
      },
    };
    const healer = new LabelHealer({ source });
    // One window over the stub's whole chain (it answers every range with all of its logs).
    const prefetcher = new LabelPrefetcher({ healer, rpcUrl, registries: [REGISTRY], windowBlocks: 100 });
    prefetcher.notify(1n);
    await expect.poll(() => healer.metrics().calls, { timeout: 10_000 }).toBeGreaterThanOrEqual(labels.length);
    await expect.poll(() => batches.flat().length, { timeout: 10_000 }).toBe(labels.length);

    expect(getLogsParams[0]).toMatchObject({
      address: [REGISTRY],
      topics: [NEW_OWNER_TOPIC],
      fromBlock: "0x1",
      toBlock: "0x64",
    });
    expect(batches.every((batch) => batch.length <= 1000)).toBe(true);
    expect(new Set(batches.flat()).size).toBe(labels.length);
    const requestsAfterPrefetch = healer.metrics().sourceRequests;
    for (const label of labels.slice(0, 50)) expect(await healer.heal(labelhash(label))).toBe(label);
    expect(healer.metrics().sourceRequests).toBe(requestsAfterPrefetch); // all cache hits
  });
});

describe("LabelPrefetcher against a provider that refuses large windows", () => {
  /*
   * A provider that answers eth_getLogs only for windows of at most 10 blocks (a range error above, as hosted providers
   * do) and serves 20 NewOwner logs per block over blocks 1–200. What must hold: the first refusal does not stop the
   * prefetch; it goes on with smaller windows, does not ask for a refused size again, heals every label in batches,
   * says once that it failed and once that it resumed, and never fetches more than `maxAheadLogs` past the block the
   * handlers are at.
   */
  const perBlock = 20;
  const blocks = 200;
  const chainLabels = Array.from({ length: perBlock * blocks }, (_, i) => `window${i}`);
  const ranges: [number, number][] = [];
  let refusals = 0;
  let refusing: Awaited<ReturnType<typeof startJsonRpcStub>>;

  beforeAll(async () => {
    refusing = await startJsonRpcStub((request) => {
      if (request.method === "eth_blockNumber") return { result: numberToHex(blocks) };
      const range = request.params[0] as { fromBlock: Hex; toBlock: Hex };
      const from = Number(range.fromBlock);
      const to = Number(range.toBlock);
      if (to - from + 1 > 10) {
        refusals += 1;
        return {
          error: { code: -32602, message: "Log response size exceeded. this block range should work: [0x1, 0xa]" },
        };
      }
      ranges.push([from, to]);
      const result = [];
      for (let block = from; block <= to; block++) {
        for (let j = 0; j < perBlock; j++) {
          const label = chainLabels[(block - 1) * perBlock + j]!;
          result.push({
            address: REGISTRY,
            topics: [NEW_OWNER_TOPIC, keccak256(toHex("eth")), labelhash(label)],
            data: "0x",
            blockNumber: numberToHex(block),
            logIndex: numberToHex(j),
          });
        }
      }
      return { result };
    });
  });
  afterAll(() => refusing.close());

  it("retries a refused window smaller and keeps batching, within its bound ahead of the handlers", async () => {
    const known = new Map(chainLabels.map((label) => [labelhash(label), label] as const));
    const healedInBatches = new Set<Hex>();
    const source: LabelSource = {
      description: "test source",
      maxBatch: 1000,
      lookup: async (hash) => known.get(hash) ?? null,
      lookupMany: async (hashes) => {
        for (const h of hashes) healedInBatches.add(h);
        return new Map(hashes.map((h) => [h, known.get(h) ?? null] as const));
      },
    };
    const warnings: string[] = [];
    let clock = 0;
    const healer = new LabelHealer({ source });
    const prefetcher = new LabelPrefetcher({
      healer,
      rpcUrl: refusing.url,
      registries: [REGISTRY],
      windowBlocks: 64,
      maxAheadLogs: 1000,
      warn: (message) => warnings.push(message),
      now: () => clock,
    });

    // The handlers stay at block 1: the prefetch stops once 1,000 labels (50 blocks) are fetched ahead of them. Each
    // notify() is an event going by; the clock jumps past any retry delay in between.
    const fetchedUpTo = () => Math.max(0, ...ranges.map(([, to]) => to));
    const notifyAt = (block: bigint) => {
      prefetcher.notify(block);
      clock += 60_000;
      return fetchedUpTo();
    };
    await expect.poll(() => notifyAt(1n), { timeout: 10_000, interval: 20 }).toBeGreaterThanOrEqual(50);
    for (let i = 0; i < 20; i++) {
      notifyAt(1n);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(refusals).toBeGreaterThan(0);
    expect(warnings[0]).toMatch(/^Label prefetching failed 3 times in a row .*this block range should work/);
    expect(warnings.some((w) => w.startsWith("Label prefetching resumed"))).toBe(true);
    expect(fetchedUpTo()).toBeLessThan(50 + 10);

    // The handlers move on: the prefetch follows them to the head, and every label was healed in a batch.
    for (let block = 1n; block <= BigInt(blocks); block += 10n) {
      const target = Math.min(blocks, Number(block) + 40);
      await expect.poll(() => notifyAt(block), { timeout: 10_000, interval: 20 }).toBeGreaterThanOrEqual(target);
    }
    await expect.poll(() => healedInBatches.size, { timeout: 5_000 }).toBe(chainLabels.length);
    // Refused at 64, 32 and 16 blocks, then never again: the refused size stays the ceiling instead of being retried
    // each time the window grows back.
    expect(refusals).toBe(3);
    const requests = healer.metrics().sourceRequests;
    for (const label of chainLabels.slice(0, 100)) expect(await healer.heal(labelhash(label))).toBe(label);
    expect(healer.metrics().sourceRequests).toBe(requests); // all cache hits
  });

  it("backs off when the label service fails a batch, without shrinking the window the provider accepts", async () => {
    const known = new Map(chainLabels.map((label) => [labelhash(label), label] as const));
    let batches = 0;
    const source: LabelSource = {
      description: "test source",
      maxBatch: 1000,
      lookup: async (hash) => known.get(hash) ?? null,
      lookupMany: async (hashes) => {
        batches += 1;
        if (batches <= 3) throw new Error("label service: connection refused");
        return new Map(hashes.map((h) => [h, known.get(h) ?? null] as const));
      },
    };
    const warnings: string[] = [];
    let clock = 0;
    const healer = new LabelHealer({ source });
    const prefetcher = new LabelPrefetcher({
      healer,
      rpcUrl: refusing.url,
      registries: [REGISTRY],
      windowBlocks: 8,
      warn: (m) => warnings.push(m),
      now: () => clock,
    });
    const refusalsBefore = refusals;
    const firstRange = ranges.length;
    await expect
      .poll(
        () => {
          prefetcher.notify(1n);
          clock += 60_000;
          return Math.max(0, ...ranges.slice(firstRange).map(([, to]) => to));
        },
        { timeout: 10_000, interval: 20 },
      )
      .toBeGreaterThanOrEqual(40);
    // The first window was fetched four times (three failed batches, then one that went through), always 8 blocks.
    const sizes = ranges.slice(firstRange).map(([from, to]) => to - from + 1);
    expect(sizes.slice(0, 4)).toEqual([8, 8, 8, 8]);
    expect(ranges.slice(firstRange, firstRange + 4).every(([from]) => from === 1)).toBe(true);
    expect(Math.min(...sizes)).toBe(8);
    // Only the provider shrinks it: one refusal, when the window first grew to 16 blocks.
    expect(refusals - refusalsBefore).toBe(1);
    // The outage lasted three tries: one warning with the service's words, then one when it resumed.
    expect(warnings[0]).toMatch(/^Label prefetching failed 3 times in a row .*label service: connection refused/);
    expect(warnings[1]).toMatch(/^Label prefetching resumed after 3 failures, 8 blocks per request/);
    expect(await healer.heal(labelhash(chainLabels[0]!))).toBe(chainLabels[0]);
  });
});

describe("nextWindow", () => {
  it("scales the window to the target number of logs, grows at most twofold, and stays within [1, max]", () => {
    expect(nextWindow(1000n, 50_000, 10_000n)).toBe(100n);
    expect(nextWindow(1000n, 100, 10_000n)).toBe(2000n);
    expect(nextWindow(8000n, 0, 10_000n)).toBe(10_000n);
    expect(nextWindow(1n, 1_000_000, 10_000n)).toBe(1n);
    expect(nextWindow(1000n, 3000, 10_000n)).toBe(1000n);
  });
});
