import { getLogsRetryHelper } from "@ponder/utils";
import {
  createPublicClient,
  HttpRequestError,
  http,
  InvalidParamsRpcError,
  LimitExceededRpcError,
  type RpcError,
  RpcRequestError,
} from "viem";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type AnvilChain, startAnvil } from "../../devnet/src/anvil";
import { Rpc } from "../../devnet/src/rpc";
import { type HostedRpc, type HostedRpcOptions, startHostedRpc } from "../../harness/hosted-rpc/hosted-rpc";
import { getLogsPolicy, rateLimitError, resultCapError } from "../../harness/hosted-rpc/provider-errors";
import { hostedRpcOptionsFromEnv } from "../src/hosted-rpc-env";

/*
 * The hosted-provider imitation over HTTP, in front of a real anvil. The chain: an emitter contract (block 1), twelve
 * blocks of 3 logs each (blocks 2..13, 0x2..0xd), six empty blocks (head 19 = 0x13). Caps are small (at most 9
 * results, 4-block ranges) so the limits bite on a few dozen logs.
 */

/*
 * Runtime: n = calldataload(0); while (n != 0) { log0(0, 0); n -= 1 }. Hand-assembled (23 bytes) so the test needs no
 * compiler; the 12-byte init code copies it to memory and returns it.
 */
const EMITTER_RUNTIME = "6000355b801560155760006000a0600190036003565b00";
const EMITTER_INIT = `0x6017600c60003960176000f3${EMITTER_RUNTIME}`;
const LOGS_PER_BLOCK = 3;
const HEAD = 19;

let anvil: AnvilChain;
let chain: Rpc;
let emitter: string;
const proxies: HostedRpc[] = [];

/** No faults, no latency, no rate limit: each test turns on only what it checks. */
const quiet = { latencyMs: 0, jitterMs: 0, maxRequestsPerSecond: 0, serverErrorRate: 0, timeoutRate: 0 };

async function proxy(options: Partial<HostedRpcOptions> = {}): Promise<HostedRpc> {
  const p = await startHostedRpc({ upstream: anvil.rpcUrl, ...quiet, ...options });
  proxies.push(p);
  return p;
}

type Reply = { status: number; headers: Headers; body: any; ms: number };

async function post(url: string, body: unknown, raw = false): Promise<Reply> {
  const t0 = performance.now();
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: raw ? (body as string) : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: JSON.parse(text), ms: performance.now() - t0 };
}

const hex = (n: number) => `0x${n.toString(16)}`;
const getLogs = (from: number, to: number, id = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "eth_getLogs",
  params: [{ address: emitter, fromBlock: hex(from), toBlock: hex(to) }],
});
const call = (method: string, params: unknown[] = [], id: number | string = 1) => ({
  jsonrpc: "2.0",
  id,
  method,
  params,
});

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 31337 });
  chain = new Rpc(anvil.rpcUrl);
  const [from] = await chain.call<string[]>("eth_accounts");
  // Anvil's automine answers before the block exists; mining each block ourselves makes the layout certain.
  await chain.call("evm_setAutomine", [false]);
  const deploy = await chain.call<string>("eth_sendTransaction", [{ from, data: EMITTER_INIT }]);
  await chain.call("evm_mine");
  emitter = (await chain.call<{ contractAddress: string }>("eth_getTransactionReceipt", [deploy])).contractAddress;
  for (let i = 0; i < 12; i++) {
    await chain.call("eth_sendTransaction", [
      { from, to: emitter, data: `0x${LOGS_PER_BLOCK.toString(16).padStart(64, "0")}` },
    ]);
    await chain.call("evm_mine");
  }
  await chain.call("anvil_mine", ["0x6"]);
  // The layout every expectation below relies on.
  expect(Number(await chain.call<string>("eth_blockNumber"))).toBe(HEAD);
  const logs = await chain.call<{ blockNumber: string }[]>("eth_getLogs", [
    { address: emitter, fromBlock: "0x0", toBlock: "latest" },
  ]);
  expect(logs.map((l) => Number(l.blockNumber))).toEqual(
    [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13].flatMap((b) => [b, b, b]),
  );
});

afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

afterAll(async () => {
  await anvil?.stop();
});

/** eth_getLogs through Ponder's own HTTP client, whose errors rpc/index.js hands to getLogsRetryHelper as they are. */
async function ponderGetLogs(
  url: string,
  fromBlock: string,
  toBlock: string,
): Promise<{ logs?: unknown[]; error?: RpcError }> {
  // Not exported by the package: loaded by path so the test sees exactly the errors Ponder 0.16 builds.
  const path = new URL("../../node_modules/ponder/dist/esm/rpc/http.js", import.meta.url).href;
  const { getHttpRpcClient } = await import(/* @vite-ignore */ path);
  const client = getHttpRpcClient(url, {
    common: { logger: { warn() {} } },
    chain: { name: "anvil", id: 31337 },
    timeout: 5_000,
  });
  try {
    return {
      logs: await client.request({
        body: { method: "eth_getLogs", params: [{ address: emitter, fromBlock, toBlock }] },
      }),
    };
  } catch (error) {
    return { error: error as RpcError };
  }
}

/** Follows the helper's ranges the way Ponder does and returns every log fetched: nothing may go missing. */
async function fetchLikePonder(
  url: string,
  fromBlock: string,
  toBlock: string,
): Promise<{ logs: unknown[]; splits: number }> {
  const first = await ponderGetLogs(url, fromBlock, toBlock);
  if (first.logs) return { logs: first.logs, splits: 0 };
  const retry = getLogsRetryHelper({
    params: [
      { address: emitter as `0x${string}`, fromBlock: fromBlock as `0x${string}`, toBlock: toBlock as `0x${string}` },
    ],
    error: first.error!,
  });
  if (!retry.shouldRetry) throw first.error;
  const logs: unknown[] = [];
  let splits = 1;
  for (const range of retry.ranges) {
    const part = await fetchLikePonder(url, range.fromBlock, range.toBlock);
    logs.push(...part.logs);
    splits += part.splits;
  }
  return { logs, splits };
}

describe("eth_getLogs caps, worded as each provider words them", () => {
  it("alchemy: ranges within the window are uncapped; wider ones over the cap name the largest range that fits", async () => {
    const p = await proxy({ style: "alchemy", getLogsMaxRange: 4, getLogsMaxResults: 9 });
    // 15 logs over the cap, but a 4-block range has no response-size limit.
    expect((await post(p.url, getLogs(2, 6))).body.result).toHaveLength(15);
    // Exactly at the cap on a wide range: allowed.
    expect((await post(p.url, getLogs(11, 16))).body.result).toHaveLength(9);

    const refused = await post(p.url, getLogs(10, 19));
    expect(refused.status).toBe(200);
    expect(refused.body.error).toEqual({
      code: -32602,
      message:
        "Log response size exceeded. You can make eth_getLogs requests with up to a 4 block range and no limit on the " +
        "response size, or you can request any block range with a cap of 9 logs in the response. Based on your " +
        "parameters and the response size limit, this block range should work: [0xa, 0xc]",
    });
    expect(p.injected().resultCap).toBe(1);

    const { error } = await ponderGetLogs(p.url, "0xa", "0x13");
    expect(getLogsRetryHelper({ params: [{ fromBlock: "0xa", toBlock: "0x13" }], error: error! })).toEqual({
      shouldRetry: true,
      isSuggestedRange: true,
      ranges: [
        { fromBlock: "0xa", toBlock: "0xc" },
        { fromBlock: "0xd", toBlock: "0xf" },
        { fromBlock: "0x10", toBlock: "0x12" },
        { fromBlock: "0x13", toBlock: "0x13" },
      ],
    });
    // Following the suggestion the way Ponder does loses no log.
    const all = await fetchLikePonder(p.url, "0x0", "0x13");
    expect(all.logs).toHaveLength(36);
    expect(all.splits).toBe(1); // one refusal; its 5-block ranges are within the uncapped window
  });

  it("infura: more than the result cap → -32005 with the range in uppercase hex and a data object", async () => {
    const p = await proxy({ style: "infura", getLogsMaxResults: 9 });
    const refused = await post(p.url, getLogs(10, 13));
    expect(refused.status).toBe(200);
    expect(refused.body.error).toEqual({
      code: -32005,
      data: { from: "0xA", limit: 9, to: "0xC" },
      message: "query returned more than 9 results. Try with this block range [0xA, 0xC].",
    });
    // Infura has no uncapped window: a 2-block range over the cap is refused too.
    expect((await post(p.url, getLogs(2, 5))).body.error.code).toBe(-32005);
    expect((await post(p.url, getLogs(2, 4))).body.result).toHaveLength(9);

    const { error } = await ponderGetLogs(p.url, "0xa", "0xd");
    expect(getLogsRetryHelper({ params: [{ fromBlock: "0xa", toBlock: "0xd" }], error: error! })).toEqual({
      shouldRetry: true,
      isSuggestedRange: true,
      ranges: [
        { fromBlock: "0xa", toBlock: "0xc" },
        { fromBlock: "0xd", toBlock: "0xd" },
      ],
    });
    expect((await fetchLikePonder(p.url, "0x0", "0x13")).logs).toHaveLength(36);
  });

  it("quicknode: a range over the cap → HTTP 413, -32614, refused before any query", async () => {
    const p = await proxy({ style: "quicknode", getLogsMaxRange: 4 });
    expect((await post(p.url, getLogs(2, 6))).body.result).toHaveLength(15); // toBlock − fromBlock = 4: allowed
    const refused = await post(p.url, getLogs(2, 7));
    expect(refused.status).toBe(413);
    expect(refused.body).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32614, message: "eth_getLogs is limited to a 4 range" },
    });
    expect(p.injected().rangeCap).toBe(1);

    const { error } = await ponderGetLogs(p.url, "0x2", "0x7");
    expect(error).toBeInstanceOf(HttpRequestError);
    expect(getLogsRetryHelper({ params: [{ fromBlock: "0x2", toBlock: "0x7" }], error: error! })).toEqual({
      shouldRetry: true,
      isSuggestedRange: true,
      ranges: [
        { fromBlock: "0x2", toBlock: "0x6" },
        { fromBlock: "0x7", toBlock: "0x7" },
      ],
    });
    expect((await fetchLikePonder(p.url, "0x0", "0x13")).logs).toHaveLength(36);
  });

  it("quicknode's default cap is 10,000 blocks, written with a thousands separator", async () => {
    const p = await proxy({ style: "quicknode" });
    const refused = await post(p.url, getLogs(0, 10_001));
    expect(refused.body.error).toEqual({ code: -32614, message: "eth_getLogs is limited to a 10,000 range" });
    expect((await post(p.url, getLogs(0, 10_000))).status).not.toBe(413);
  });

  it("resolves tags in the range before capping: latest is the head", async () => {
    const p = await proxy({ style: "quicknode", getLogsMaxRange: 4 });
    const refused = await post(p.url, {
      ...getLogs(0, 0),
      params: [{ address: emitter, fromBlock: hex(HEAD - 5), toBlock: "latest" }],
    });
    expect(refused.status).toBe(413);
    const allowed = await post(p.url, {
      ...getLogs(0, 0),
      params: [{ address: emitter, fromBlock: hex(HEAD - 4), toBlock: "latest" }],
    });
    expect(allowed.body.result).toEqual([]);
  });

  it("the default texts match the providers' own, word for word", () => {
    // ethers-io/ethers.js#4703 quotes both answers from mainnet.
    expect(resultCapError("alchemy", getLogsPolicy("alchemy"), 0n, 0xd043b8n).error).toEqual({
      code: -32602,
      message:
        "Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of 10K logs in the response. Based on your parameters and the response size limit, this block range should work: [0x0, 0xd043b8]",
    });
    expect(resultCapError("infura", getLogsPolicy("infura"), 0xbde5f8n, 0x102dbccn).error).toEqual({
      code: -32005,
      data: { from: "0xBDE5F8", limit: 10000, to: "0x102DBCC" },
      message: "query returned more than 10000 results. Try with this block range [0xBDE5F8, 0x102DBCC].",
    });
  });
});

describe("viem's client on the cap errors", () => {
  const viemGetLogs = (url: string, from: number, to: number) =>
    createPublicClient({ transport: http(url, { retryCount: 2, retryDelay: 1 }) })
      .getLogs({ address: emitter as `0x${string}`, fromBlock: BigInt(from), toBlock: BigInt(to) })
      .then(
        (logs) => ({ logs, error: undefined }),
        (error: Error) => ({ logs: undefined, error }),
      );

  it("alchemy's -32602 is not retried; infura's -32005 and quicknode's 413 are, then propagate", async () => {
    const alchemy = await proxy({ style: "alchemy", getLogsMaxRange: 4, getLogsMaxResults: 9 });
    const a = await viemGetLogs(alchemy.url, 0, 19);
    expect(a.error).toBeInstanceOf(InvalidParamsRpcError);
    expect(alchemy.calls().eth_getLogs).toBe(1);
    expect((await viemGetLogs(alchemy.url, 2, 4)).logs).toHaveLength(9);

    const infura = await proxy({ style: "infura", getLogsMaxResults: 9 });
    const i = await viemGetLogs(infura.url, 0, 19);
    expect(i.error).toBeInstanceOf(LimitExceededRpcError);
    expect(infura.calls().eth_getLogs).toBe(3);

    const quicknode = await proxy({ style: "quicknode", getLogsMaxRange: 4 });
    const q = await viemGetLogs(quicknode.url, 0, 19);
    // viem ≥ 2.5x keeps the JSON-RPC error of a non-2xx answer (Ponder's own client makes it an HttpRequestError).
    expect(q.error).toBeInstanceOf(RpcRequestError);
    expect([(q.error as RpcRequestError).status, (q.error as RpcRequestError).code]).toEqual([413, -32614]);
    expect(quicknode.calls().eth_getLogs).toBe(3);
    // viem's errors carry the same text, so the helper splits on them too.
    const params = [{ fromBlock: "0x0", toBlock: "0x13" }] as [{ fromBlock: `0x${string}`; toBlock: `0x${string}` }];
    expect(getLogsRetryHelper({ params, error: q.error as RpcError }).shouldRetry).toBe(true);
    expect(getLogsRetryHelper({ params, error: a.error as RpcError }).shouldRetry).toBe(true);
  });
});

describe("rate limit, latency, faults", () => {
  it("above maxRequestsPerSecond answers 429 with Retry-After: 1 and the provider's body", async () => {
    const p = await proxy({ style: "alchemy", maxRequestsPerSecond: 5 });
    const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => post(p.url, call("eth_chainId", [], i))));
    const limited = replies.filter((r) => r.status === 429);
    expect(replies.filter((r) => r.status === 200)).toHaveLength(5);
    expect(limited).toHaveLength(3);
    for (const r of limited) {
      expect(r.headers.get("retry-after")).toBe("1");
      expect(r.body.error).toEqual(rateLimitError("alchemy", 5).error);
      expect(r.body.error.code).toBe(429);
      expect(r.body.error.message).toMatch(/^Your app has exceeded its compute units per second capacity\./);
    }
    expect(p.injected().rateLimited).toBe(3);
    expect(p.calls().eth_chainId).toBe(5); // refused calls are not billed

    // A 429 storm switched on at run time, on a batch, in QuickNode's words.
    p.configure({ style: "quicknode", maxRequestsPerSecond: 1 });
    await new Promise((r) => setTimeout(r, 1_050));
    expect((await post(p.url, call("eth_chainId"))).status).toBe(200);
    const batch = await post(p.url, [call("eth_chainId", [], 1), call("eth_blockNumber", [], 2)]);
    expect(batch.status).toBe(429);
    expect(batch.body.map((r: any) => [r.id, r.error.code])).toEqual([
      [1, -32007],
      [2, -32007],
    ]);
    expect(batch.body[0].error.message).toBe(
      "1/second request limit reached - reduce calls per second or upgrade your account at quicknode.com",
    );
  });

  it("adds latency per request (mean at least latency − jitter)", async () => {
    const p = await proxy({ latencyMs: 60, jitterMs: 20, seed: 7 });
    const times: number[] = [];
    for (let i = 0; i < 20; i++) times.push((await post(p.url, call("eth_chainId"))).ms);
    const mean = times.reduce((s, t) => s + t, 0) / times.length;
    expect(mean).toBeGreaterThanOrEqual(40);
    expect(Math.min(...times)).toBeGreaterThanOrEqual(39); // uniform ± 20 never goes below 40 (timer granularity: 1 ms)
  });

  it("server errors are 502 pages or 503 JSON-RPC errors; timeouts hold then drop the connection", async () => {
    const p = await proxy({ serverErrorRate: 1, seed: 3 });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await fetch(p.url, { method: "POST", body: JSON.stringify(call("eth_chainId", [], i)) });
      statuses.push(res.status);
      const text = await res.text();
      if (res.status === 503)
        expect(JSON.parse(text)).toEqual({
          jsonrpc: "2.0",
          id: i,
          error: { code: -32603, message: "service temporarily unavailable" },
        });
      else expect(text).toContain("502 Bad Gateway");
    }
    expect(new Set(statuses)).toEqual(new Set([502, 503]));
    expect(p.injected().serverError).toBe(12);

    p.configure({ serverErrorRate: 0, timeoutRate: 1, timeoutHoldMs: 300 });
    const t0 = performance.now();
    const dropped = await fetch(p.url, { method: "POST", body: JSON.stringify(call("eth_chainId")) }).then(
      () => "answered",
      (error: Error) => error.name,
    );
    expect(dropped).toBe("TypeError"); // fetch failed: the socket closed without an answer
    expect(performance.now() - t0).toBeGreaterThanOrEqual(280);
    expect(p.injected().timeout).toBe(1);
  });
});

describe("JSON-RPC handling and counters", () => {
  it("forwards a batch as a batch, caps getLogs per call, keeps ids, counts calls by method", async () => {
    const p = await proxy({ style: "alchemy", getLogsMaxRange: 4, getLogsMaxResults: 9 });
    const reply = await post(p.url, [
      call("eth_chainId", [], "a"),
      call("eth_blockNumber", [], 7),
      getLogs(0, 19, 8),
      call("eth_blockNumber", [], 9),
      getLogs(2, 4, 10),
    ]);
    expect(reply.status).toBe(200);
    const [chainId, head1, capped, head2, logs] = reply.body;
    expect(chainId).toEqual({ jsonrpc: "2.0", id: "a", result: "0x7a69" });
    expect([head1.id, head1.result, head2.id, head2.result]).toEqual([7, hex(HEAD), 9, hex(HEAD)]);
    expect(capped.id).toBe(8);
    expect(capped.error.message).toContain("this block range should work: [0x0, 0x4]");
    expect(logs.result).toHaveLength(9);
    expect(p.calls()).toEqual({ eth_chainId: 1, eth_blockNumber: 2, eth_getLogs: 2 });
    expect(p.requests()).toBe(1);
    expect(p.injected()).toEqual({ rangeCap: 0, resultCap: 1, rateLimited: 0, serverError: 0, timeout: 0, lagging: 0 });
    p.resetCounters();
    expect([p.calls(), p.requests(), p.injected().resultCap]).toEqual([{}, 0, 0]);
  });

  it("answers malformed JSON with -32700 and an empty batch with -32600, and keeps serving", async () => {
    const p = await proxy();
    const bad = await post(p.url, '{"jsonrpc":"2.0","method":', true);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
    expect((await post(p.url, [])).body.error.code).toBe(-32600);
    expect(
      (await post(p.url, [42, call("eth_chainId", [], 2)])).body.map((r: any) => r.error?.code ?? r.result),
    ).toEqual([-32600, "0x7a69"]);
    expect((await post(p.url, call("eth_chainId"))).body.result).toBe("0x7a69");
  });

  it("answers 502 with a JSON-RPC error per call when the upstream is unreachable", async () => {
    const p = await startHostedRpc({ upstream: "http://127.0.0.1:1", ...quiet });
    proxies.push(p);
    const reply = await post(p.url, [call("eth_chainId", [], 1), call("eth_blockNumber", [], 2)]);
    expect(reply.status).toBe(502);
    expect(reply.body.map((r: any) => [r.id, r.error.code])).toEqual([
      [1, -32603],
      [2, -32603],
    ]);
    expect(reply.body[0].error.message).toMatch(/^upstream unreachable/);
  });
});

describe("a lagging node", () => {
  it("answers a head lagBlocks behind: lower eth_blockNumber, null for newer blocks, unknown-block for their logs", async () => {
    const p = await proxy({ lagRate: 1, lagBlocks: 3 });
    const lagHead = HEAD - 3;
    expect((await post(p.url, call("eth_blockNumber"))).body.result).toBe(hex(lagHead));
    expect((await post(p.url, call("eth_getBlockByNumber", [hex(HEAD), false]))).body.result).toBeNull();
    expect((await post(p.url, call("eth_getBlockByNumber", ["latest", false]))).body.result.number).toBe(hex(lagHead));
    expect((await post(p.url, call("eth_getBlockByNumber", [hex(lagHead), false]))).body.result.number).toBe(
      hex(lagHead),
    );
    const headHash = (await chain.call<{ hash: string }>("eth_getBlockByNumber", [hex(HEAD), false])).hash;
    expect((await post(p.url, call("eth_getBlockByHash", [headHash, false]))).body.result).toBeNull();

    const beyond = await post(p.url, getLogs(0, HEAD));
    expect(beyond.body.error).toEqual({
      code: -32000,
      message: "One of the blocks specified in filter (fromBlock, toBlock or blockHash) cannot be found.",
    });
    const byHash = await post(p.url, { ...getLogs(0, 0), params: [{ blockHash: headHash }] });
    expect(byHash.body.error.code).toBe(-32000);
    expect((await post(p.url, getLogs(0, lagHead))).body.result).toHaveLength(36);
    expect(p.injected().lagging).toBe(8);

    // The answer a client cannot tell from a complete one, when asked for: logs up to the lagging head only.
    p.configure({ lagBlocks: 8, lagGetLogsBeyondHead: "truncate" });
    expect((await post(p.url, getLogs(0, HEAD))).body.result).toHaveLength(30); // blocks 2..11
  });

  it("answers from the up-to-date head when lagRate is 0", async () => {
    const p = await proxy({ lagRate: 0, lagBlocks: 3 });
    expect((await post(p.url, call("eth_blockNumber"))).body.result).toBe(hex(HEAD));
    expect((await post(p.url, call("eth_getBlockByNumber", [hex(HEAD), false]))).body.result.number).toBe(hex(HEAD));
  });
});

describe("hostedRpcOptionsFromEnv", () => {
  const problems = (env: Record<string, string>) => {
    try {
      hostedRpcOptionsFromEnv(env);
    } catch (error) {
      return (error as Error).message;
    }
    return "no error";
  };

  it("reads every variable", () => {
    expect(
      hostedRpcOptionsFromEnv({
        REHEARSAL_PROVIDER: "infura",
        REHEARSAL_LATENCY_MS: "25",
        REHEARSAL_JITTER_MS: "5",
        REHEARSAL_MAX_RPS: "off",
        REHEARSAL_SERVER_ERROR_RATE: "0.01",
        REHEARSAL_TIMEOUT_RATE: "0",
        REHEARSAL_LAG_RATE: "0.1",
        REHEARSAL_LAG_BLOCKS: "2",
        REHEARSAL_GETLOGS_MAX_RANGE: "500",
        REHEARSAL_GETLOGS_MAX_RESULTS: "1000",
        REHEARSAL_LATENCY_UNRELATED: "",
      }),
    ).toEqual({
      style: "infura",
      latencyMs: 25,
      jitterMs: 5,
      maxRequestsPerSecond: 0,
      serverErrorRate: 0.01,
      timeoutRate: 0,
      lagRate: 0.1,
      lagBlocks: 2,
      getLogsMaxRange: 500,
      getLogsMaxResults: 1000,
    });
    expect(hostedRpcOptionsFromEnv({ REHEARSAL_PROVIDER: "" })).toEqual({ style: "alchemy" });
  });

  it("names the variable, what it got and what is valid", () => {
    expect(problems({ REHEARSAL_PROVIDER: "ankr" })).toContain(
      'REHEARSAL_PROVIDER: must be one of alchemy, infura, quicknode (got "ankr")',
    );
    expect(problems({ REHEARSAL_LAG_RATE: "5" })).toContain(
      'REHEARSAL_LAG_RATE: must be a share between 0 and 1 (e.g. 0.002) (got "5")',
    );
    expect(problems({ REHEARSAL_LATENCY_MS: "fast" })).toContain(
      "REHEARSAL_LATENCY_MS: must be a whole number of milliseconds, 0 or more",
    );
    expect(problems({ REHEARSAL_MAX_RPS: "lots" })).toContain(
      'REHEARSAL_MAX_RPS: must be a number of requests per second, or 0 or "off" for no limit',
    );
    expect(problems({ REHEARSAL_LAG_BLOCKS: "-1" })).toContain(
      "REHEARSAL_LAG_BLOCKS: must be a whole number of blocks, 0 or more",
    );
    expect(problems({ REHEARSAL_GETLOGS_MAX_RANGE: "0" })).toContain(
      "REHEARSAL_GETLOGS_MAX_RANGE: must be a whole number, 1 or more",
    );
    expect(problems({ REHEARSAL_PROVIDER: "quicknode", REHEARSAL_GETLOGS_MAX_RESULTS: "10" })).toContain(
      "REHEARSAL_GETLOGS_MAX_RESULTS: quicknode has no result-count limit to imitate",
    );
    // Every problem at once.
    const both = problems({ REHEARSAL_PROVIDER: "x", REHEARSAL_TIMEOUT_RATE: "-1" });
    expect(both).toContain("REHEARSAL_PROVIDER:");
    expect(both).toContain("REHEARSAL_TIMEOUT_RATE:");
  });
});
