import { numberToHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildConfig } from "../../src/config";
import { composeChains } from "../../src/plugins/compose";
import { startJsonRpcStub } from "../support/json-rpc-stub";

/*
 * An eth_getLogs page of a busy mainnet range is more than viem's default 10 MiB response cap, and Ponder reads that
 * refusal as neither a range error (it does not split the range) nor a fatal one: it retries the same range nine times,
 * then the backfill gets the error. What must hold: the mainnet chain Ponder is given reads a ~19 MB answer (16,000 logs with 512 bytes of
 * data each).
 */

const LOGS = 16_000;
let stub: Awaited<ReturnType<typeof startJsonRpcStub>>;

beforeAll(async () => {
  const log = (i: number) => ({
    address: "0x00000000000c2e074ec69a0dfb2997ba6c7d2e1e",
    topics: [numberToHex(i, { size: 32 })],
    data: `0x${"ab".repeat(512)}`,
    blockNumber: numberToHex(1 + (i >> 4)),
    logIndex: numberToHex(i & 15),
  });
  stub = await startJsonRpcStub(() => ({ result: Array.from({ length: LOGS }, (_, i) => log(i)) }));
});
afterAll(() => stub.close());

describe("the chains' JSON-RPC transport", () => {
  it("reads an eth_getLogs answer larger than viem's 10 MiB default on mainnet", async () => {
    const chains = composeChains(buildConfig({ NAMESPACE: "mainnet", PLUGINS: "subgraph", RPC_URL_1: stub.url }));
    const logs = (await chains.mainnet!.rpc({ retryCount: 0 }).request({
      method: "eth_getLogs",
      params: [{ fromBlock: "0x1", toBlock: "0x3e8" }],
    })) as unknown[];
    expect(logs).toHaveLength(LOGS);
  });
});
