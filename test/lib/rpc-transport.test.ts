import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { numberToHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildConfig } from "../../src/config";
import { composeChains } from "../../src/plugins/compose";

/*
 * An eth_getLogs page of a busy mainnet range is more than viem's default 10 MiB response cap, and Ponder reads that
 * refusal as neither a range error (it does not split the range) nor a fatal one: it retries the same range nine times,
 * then the backfill gets the error. What must hold: the mainnet chain Ponder is given reads a ~19 MB answer (16,000 logs with 512 bytes of
 * data each).
 */

const LOGS = 16_000;
let server: Server;
let url: string;

beforeAll(async () => {
  const log = (i: number) => ({
    address: "0x00000000000c2e074ec69a0dfb2997ba6c7d2e1e",
    topics: [numberToHex(i, { size: 32 })],
    data: `0x${"ab".repeat(512)}`,
    blockNumber: numberToHex(1 + (i >> 4)),
    logIndex: numberToHex(i & 15),
  });
  const body = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, result: Array.from({ length: LOGS }, (_, i) => log(i)) });
  server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(body((JSON.parse(text) as { id: number }).id));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe("the chains' JSON-RPC transport", () => {
  it("reads an eth_getLogs answer larger than viem's 10 MiB default on mainnet", async () => {
    const chains = composeChains(buildConfig({ NAMESPACE: "mainnet", PLUGINS: "subgraph", RPC_URL_1: url }));
    const logs = (await chains.mainnet!.rpc({ retryCount: 0 }).request({
      method: "eth_getLogs",
      params: [{ fromBlock: "0x1", toBlock: "0x3e8" }],
    })) as unknown[];
    expect(logs).toHaveLength(LOGS);
  });
});
