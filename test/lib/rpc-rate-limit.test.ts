import { custom } from "viem";
import { describe, expect, it } from "vitest";
// The ponder patch's own modules (patch createRpc-local-node-starts-at-max-rps, docs/patches.md): Ponder's JSON-RPC client with its adaptive rate limit.
// @ts-expect-error plain JavaScript without types
import { createRpc } from "../../node_modules/ponder/dist/esm/rpc/index.js";
import { ponderCommon } from "../support/ponder-common";

/*
 * Ponder's JSON-RPC client starts every provider at 20 requests/s and raises that by 5% only after ~10 s at the limit,
 * so on a local devnet the limit, not anvil, set the backfill's fetch (~400 requests for 10,000 names: 14 s). The
 * ponder patch starts a chain with its RPC cache disabled (a local node: the devnet) at Ponder's ceiling instead; any
 * other chain keeps Ponder's start.
 */

/** How many of 100 requests, made at once, reach the node within the first 400 ms. */
async function admittedAtOnce(disableCache: boolean): Promise<number> {
  const common = ponderCommon();
  const started = Date.now();
  const arrivals: number[] = [];
  const transport = custom({
    async request() {
      arrivals.push(Date.now() - started);
      return "0x7a69";
    },
  });
  const rpc = createRpc({ common, chain: { id: 31337, name: "devnetRoot", rpc: transport, disableCache }, concurrency: 25 });
  const requests = Array.from({ length: 100 }, () => rpc.request({ method: "eth_chainId" }));
  await new Promise((r) => setTimeout(r, 400));
  // By arrival time, not by what has arrived when the timer fires: on a loaded machine it may fire late.
  const admitted = arrivals.filter((ms) => ms < 400).length;
  await Promise.all(requests);
  await common.shutdown.kill();
  return admitted;
}

describe("JSON-RPC rate limit at the start of a backfill (ponder patch, rpc/index.js)", () => {
  it("lets a local chain's (RPC cache disabled) requests through at once", async () => {
    expect(await admittedAtOnce(true)).toBe(100);
  });

  it("keeps Ponder's starting limit of 20 requests per second for any other chain", async () => {
    // At most two one-second windows can start within 400 ms: 40 requests.
    expect(await admittedAtOnce(false)).toBeLessThanOrEqual(40);
  }, 15_000);
});
