import { createPublicClient, numberToHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AnvilChain, startAnvil } from "../../devnet/src/anvil";
import { buildConfig } from "../../src/config";
import { rpcTransport } from "../../src/lib/rpc-transport";
import { NAMEINDEX_VERSION } from "../../src/lib/versions";
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

  it("names its sender in the User-Agent: Ponder's sync as indexing, the API's clients by their purpose", async () => {
    const agents: string[] = [];
    const recorder = await startJsonRpcStub((_, headers) => {
      agents.push(String(headers["user-agent"]));
      return { result: "0x1" };
    });
    try {
      const chains = composeChains(buildConfig({ NAMESPACE: "mainnet", PLUGINS: "subgraph", RPC_URL_1: recorder.url }));
      await chains.mainnet!.rpc({ retryCount: 0 }).request({ method: "eth_chainId" });
      await createPublicClient({ transport: rpcTransport(recorder.url, "resolution") }).getChainId();
      expect(agents).toEqual([
        `nameindex/${NAMEINDEX_VERSION} (indexing)`,
        `nameindex/${NAMEINDEX_VERSION} (resolution)`,
      ]);
    } finally {
      await recorder.close();
    }
  });

  describe("given a ws:// URL", () => {
    let anvil: AnvilChain;
    beforeAll(async () => {
      anvil = await startAnvil({ chainId: 31_337 });
    }, 60_000);
    afterAll(() => anvil?.stop());

    it("speaks JSON-RPC over a WebSocket, for Ponder's sync and for the API's clients", async () => {
      // anvil answers WebSocket upgrades on its HTTP port.
      const wsUrl = anvil.rpcUrl.replace(/^http/, "ws");
      const chains = composeChains(buildConfig({ NAMESPACE: "mainnet", PLUGINS: "subgraph", RPC_URL_1: wsUrl }));
      expect(await chains.mainnet!.rpc({ retryCount: 0, timeout: 5_000 }).request({ method: "eth_chainId" })).toBe(
        "0x7a69",
      );
      const client = createPublicClient({ transport: rpcTransport(wsUrl, "indexing-status", { retryCount: 0 }) });
      expect(await client.getBlockNumber()).toBeGreaterThanOrEqual(0n);
    });
  });
});
