import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAULT_KINDS, type FaultKind, type FaultProxy, startFaultProxy } from "./support/fault-proxy";

/* The fault proxy itself: each kind does what the RPC tests count on, for single and batch requests. */

let upstream: http.Server;
let upstreamUrl: string;
let proxy: FaultProxy;

beforeAll(async () => {
  // A JSON-RPC echo: result = the method name, for each request of a batch.
  upstream = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as
        | { id: number; method: string }
        | { id: number; method: string }[];
      const one = (r: { id: number; method: string }) => ({
        jsonrpc: "2.0",
        id: r.id,
        result: `${r.method}:${"x".repeat(2000)}`,
      });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(Array.isArray(body) ? body.map(one) : one(body)));
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", () => resolve()));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
  proxy = await startFaultProxy({ upstream: upstreamUrl, seed: 1, faultRate: 0, timeoutHoldMs: 800, slowMs: 300 });
});

afterAll(async () => {
  await proxy.close();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
});

type Outcome = { status?: number; body?: unknown; retryAfter?: string | null; error?: string; ms: number };

async function call(body: unknown, timeoutMs = 500, userAgent = "fault-proxy-test"): Promise<Outcome> {
  const t0 = Date.now();
  try {
    const res = await fetch(proxy.url, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": userAgent },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    return {
      status: res.status,
      body: JSON.parse(text),
      retryAfter: res.headers.get("retry-after"),
      ms: Date.now() - t0,
    };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string; message?: string } };
    return { error: `${e.name}: ${e.cause?.code ?? e.cause?.message ?? e.message}`, ms: Date.now() - t0 };
  }
}

const single = { jsonrpc: "2.0", id: 7, method: "eth_blockNumber" };
const batch = [
  { jsonrpc: "2.0", id: 1, method: "eth_chainId" },
  { jsonrpc: "2.0", id: 2, method: "eth_blockNumber" },
];

function only(kind: FaultKind) {
  proxy.setFaults(1, { [kind]: 1 });
}

describe("fault proxy", () => {
  it("passes requests and batches through untouched at rate 0", async () => {
    proxy.setFaults(0);
    expect((await call(single)).body).toMatchObject({ id: 7, result: expect.stringMatching(/^eth_blockNumber:/) });
    const out = await call(batch);
    expect((out.body as { id: number }[]).map((r) => r.id)).toEqual([1, 2]);
  });

  it("answers 500, JSON-RPC errors and 429 with Retry-After, one error per batch entry", async () => {
    only("http500");
    expect(await call(single)).toMatchObject({ status: 500, body: { id: 7, error: { code: -32603 } } });
    only("rpcError");
    expect(await call(batch)).toMatchObject({
      status: 200,
      body: [
        { id: 1, error: { code: -32603 } },
        { id: 2, error: { code: -32603 } },
      ],
    });
    only("rateLimit");
    expect(await call(single)).toMatchObject({ status: 429, retryAfter: "1", body: { error: { code: 429 } } });
  });

  it("holds a timeout past the client's patience, delays a slow answer, cuts a truncated body, resets", async () => {
    only("timeout");
    expect(await call(single, 500)).toMatchObject({ error: expect.stringMatching(/TimeoutError/) });
    only("slow");
    const slow = await call(single, 2_000);
    expect(slow.status).toBe(200);
    expect(slow.ms).toBeGreaterThanOrEqual(280);
    only("truncated");
    expect((await call(batch)).error).toBeDefined();
    only("reset");
    expect((await call(single)).error).toMatch(/ECONNRESET|other side closed|fetch failed|SocketError/);
  });

  it("faults about the configured share of requests and counts each kind", async () => {
    const before = proxy.counts();
    proxy.setFaults(0.3, { http500: 1, rpcError: 1, rateLimit: 1 });
    const n = 300;
    const beforeB = proxy.countsByAgent()["agent-b"] ?? {};
    for (let i = 0; i < n; i++) await call({ ...single, id: i }, 500, i % 2 === 0 ? "agent-a" : "agent-b");
    const after = proxy.counts();
    const injected = FAULT_KINDS.reduce((s, k) => s + after[k] - before[k], 0);
    expect(injected / n).toBeGreaterThan(0.2);
    expect(injected / n).toBeLessThan(0.4);
    for (const k of ["http500", "rpcError", "rateLimit"] as const) expect(after[k] - before[k]).toBeGreaterThan(10);
    expect(proxy.faultedMethods().eth_blockNumber).toBeGreaterThan(0);
    // Each fault is also counted under the User-Agent of the request it hit.
    const byAgent = proxy.countsByAgent();
    const injectedB = FAULT_KINDS.reduce((s, k) => s + byAgent["agent-b"]![k] - (beforeB[k] ?? 0), 0);
    expect(injectedB).toBeGreaterThan(20);
    expect(injectedB).toBeLessThan(injected - 20);
    expect(FAULT_KINDS.reduce((s, k) => s + byAgent["agent-a"]![k], 0) + injectedB).toBe(injected);
  });
});
