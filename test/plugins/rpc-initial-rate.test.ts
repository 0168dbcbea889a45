import { custom } from "viem";
import { afterEach, describe, expect, it } from "vitest";
// biome-ignore format: on one line, so that the @ts-expect-error under this comment covers the module path
// @ts-expect-error Ponder's built module, as patched (patches/ponder+0.17.7+032+createRpc-initial-rps.patch)
import { createRpc } from "../../node_modules/ponder/dist/esm/rpc/index.js";
import { setRpcInitialRps } from "../../src/runtime/ponder-hooks";

/*
 * Patch 032: Ponder's RPC queue starts every chain at 20 requests per second and raises the rate 5 % at a time, so a
 * backfill's burst of handler eth_calls (the resolver reads) waited in that queue even where the provider takes far
 * more. RPC_REQUESTS_PER_SECOND (src/config: NAMEINDEX_RPC_INITIAL_RPS for the patch) starts it at the provider's
 * rate. Here: 120 requests sent at once to a provider that answers at once; how many it receives in the first 600 ms.
 */

const noop = () => {};
const logger = { debug: noop, trace: noop, warn: noop, info: noop, error: noop };
const common = {
  logger,
  metrics: {
    ponder_rpc_request_duration: { observe: noop },
    ponder_rpc_request_error_total: { inc: noop },
  },
  shutdown: { add: noop, isKilled: false },
  options: {},
};

async function arrivalsInFirst(ms: number, initialRps: number | undefined): Promise<number> {
  if (initialRps === undefined) delete process.env.NAMEINDEX_RPC_INITIAL_RPS;
  else setRpcInitialRps(initialRps);
  const arrivals: number[] = [];
  const started = Date.now();
  const transport = custom({
    async request() {
      arrivals.push(Date.now() - started);
      return "0x1";
    },
  });
  const rpc = createRpc({ common, chain: { id: 1, name: "test", rpc: transport, viemChain: undefined } });
  const requests = Array.from({ length: 120 }, () => rpc.request({ method: "eth_chainId" }).catch(() => undefined));
  await new Promise((resolve) => setTimeout(resolve, ms));
  const early = arrivals.filter((t) => t < ms).length;
  await Promise.all(requests);
  return early;
}

afterEach(() => {
  delete process.env.NAMEINDEX_RPC_INITIAL_RPS;
});

describe("Ponder's RPC queue's starting rate (patch 032)", () => {
  it("starts at 20 requests per second by default", async () => {
    // 600 ms may straddle two of the queue's one-second windows: 20 each.
    expect(await arrivalsInFirst(600, undefined)).toBeLessThanOrEqual(40);
  }, 30_000);

  it("starts at the rate RPC_REQUESTS_PER_SECOND gives it", async () => {
    expect(await arrivalsInFirst(600, 500)).toBe(120);
  }, 30_000);
});
