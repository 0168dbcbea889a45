import http from "node:http";
import { createPublicClient, http as httpTransport, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isTransportError } from "../../src/api/shared/resolution/onchain-backend";

/*
 * Onchain resolution reads an unset record as a revert or empty data; anything else the RPC answers is a failure
 * that must surface as 503. These are the bodies real providers send (and anvil's revert, code 3).
 */

let answer: { status: number; body: unknown } = { status: 200, body: null };
let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function readError(status: number, body: unknown): Promise<unknown> {
  answer = { status, body };
  const client = createPublicClient({ transport: httpTransport(url, { retryCount: 0 }) });
  try {
    await client.readContract({
      address: "0x00000000000000000000000000000000000000aa",
      abi: parseAbi(["function resolver(bytes32) view returns (address)"]),
      functionName: "resolver",
      args: [`0x${"00".repeat(32)}`],
    });
  } catch (error) {
    return error;
  }
  throw new Error("the read succeeded");
}

const rpcError = (code: number, message: string, data?: string) => ({
  jsonrpc: "2.0",
  id: 1,
  error: { code, message, ...(data ? { data } : {}) },
});

describe("isTransportError", () => {
  it.each([
    ["-32603 internal error in a 200", 200, rpcError(-32603, "backend unavailable")],
    ["-32603 with revert-like data", 200, rpcError(-32603, "internal error", "0x")],
    ["a 500 with a JSON-RPC body", 500, rpcError(-32603, "internal server error")],
    ["a 429 with a JSON-RPC body", 429, rpcError(429, "too many requests")],
    ["-32000 that is not a revert", 200, rpcError(-32000, "header not found")],
    ["a 502 without a JSON-RPC body", 502, "bad gateway"],
  ])("is true for %s", async (_, status, body) => {
    expect(isTransportError(await readError(status, body))).toBe(true);
  });

  it.each([
    ["anvil's revert (code 3)", 200, rpcError(3, "execution reverted", "0x")],
    ["geth's revert (-32000)", 200, rpcError(-32000, "execution reverted")],
    ["empty return data", 200, { jsonrpc: "2.0", id: 1, result: "0x" }],
  ])("is false for %s: the chain answered", async (_, status, body) => {
    expect(isTransportError(await readError(status, body))).toBe(false);
  });
});
