import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Hex, keccak256, numberToHex, parseAbiItem, toEventSelector, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LabelHealer } from "../../src/lib/healing/healer";
import { LabelPrefetcher } from "../../src/lib/healing/prefetch";
import type { LabelSource } from "../../src/lib/healing/sources";

/*
 * The label prefetch reads the registries' NewOwner logs ahead of the handlers and heals their labelhashes in
 * batches. What must hold: every NewOwner labelhash in the window reaches the label source, each once, in batches,
 * and the handlers' heal() calls are then cache hits with the verified labels. The chain here is a JSON-RPC stub
 * serving raw logs, including another event's log the request's topic filter must have excluded.
 */

const NEW_OWNER_TOPIC = toEventSelector(parseAbiItem("event NewOwner(bytes32 indexed node, bytes32 indexed label, address owner)"));
const REGISTRY = "0x00000000000c2e074ec69a0dfb2997ba6c7d2e1e";
const labels = Array.from({ length: 3000 }, (_, i) => `name${i}`);
const labelhash = (label: string) => keccak256(toHex(label));

let server: Server;
let rpcUrl: string;
const getLogsParams: unknown[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const request = JSON.parse(body) as { id: number; method: string; params: [{ topics?: Hex[]; address?: string[] }] };
      let result: unknown;
      if (request.method === "eth_blockNumber") result = numberToHex(100);
      else if (request.method === "eth_getLogs") {
        getLogsParams.push(request.params[0]);
        const topic0 = request.params[0].topics?.[0];
        // Each label twice (a name registered and later re-owned): one lookup each all the same.
        result = [...labels, ...labels]
          .map((label, i) => ({
            address: REGISTRY,
            topics: [NEW_OWNER_TOPIC, keccak256(toHex(`parent${i}`)), labelhash(label)],
            data: "0x" + "00".repeat(32),
            blockNumber: numberToHex(1 + (i % 90)),
            logIndex: numberToHex(i),
          }))
          .filter((log) => topic0 === undefined || log.topics[0] === topic0);
      } else result = null;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: request.id, result }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  rpcUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

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
    const prefetcher = new LabelPrefetcher({ healer, rpcUrl, registries: [REGISTRY] });
    prefetcher.notify(1n);
    await expect.poll(() => healer.metrics().calls, { timeout: 10_000 }).toBeGreaterThanOrEqual(labels.length);
    await expect.poll(() => batches.flat().length, { timeout: 10_000 }).toBe(labels.length);

    expect(getLogsParams[0]).toMatchObject({ address: [REGISTRY], topics: [NEW_OWNER_TOPIC], fromBlock: "0x1", toBlock: "0x64" });
    expect(batches.every((batch) => batch.length <= 1000)).toBe(true);
    expect(new Set(batches.flat()).size).toBe(labels.length);
    const requestsAfterPrefetch = healer.metrics().sourceRequests;
    for (const label of labels.slice(0, 50)) expect(await healer.heal(labelhash(label))).toBe(label);
    expect(healer.metrics().sourceRequests).toBe(requestsAfterPrefetch); // all cache hits
  });
});
