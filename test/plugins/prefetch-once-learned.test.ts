import { encodeAbiParameters, type Hex, parseAbi, toHex } from "viem";
import { describe, expect, it } from "vitest";
// biome-ignore format: on one line, so that the @ts-expect-error under this comment covers the module path
// @ts-expect-error Ponder's built module, as patched (patches/ponder+0.17.7+033+prefetch-once-learned.patch)
import { createCachedViemClient } from "../../node_modules/ponder/dist/esm/indexing/client.js";

/*
 * Patch 033: Ponder learns a handler's `context.client` calls from its first events and predicts them for a batch only
 * at the batch's start, so every read of an event's first batch waited (on the devnet, each chain's first batch of
 * value-less TextChanged). With the patch, the first learned pattern predicts the rest of the batch at once. Here:
 * one batch of events whose handler reads a text, as the protocol-acceleration handler does; how the reads were
 * answered (Ponder's `ponder_indexing_rpc_requests_total` types: `rpc` = waited for, `prefetch_rpc` = asked ahead).
 */

const TEXT_ABI = parseAbi(["function text(bytes32 node, string key) view returns (string)"]);
const EVENT_NAME = "Resolver:TextChanged(bytes32 indexed node, string indexed indexedKey, string key)";
const RESOLVER = "0x231b0ee14048e9dccd1d247744d114a4eb5e8e63";

async function readsOfOneBatch(events: number): Promise<{ byType: Record<string, number>; rpcRequests: number }> {
  const byType: Record<string, number> = {};
  const handlerReads = {
    inc: (labels: { type: string }) => void (byType[labels.type] = (byType[labels.type] ?? 0) + 1),
  };
  const otherMetric = { inc() {}, observe() {} };
  const metrics = new Proxy(
    {},
    { get: (_, name) => (name === "ponder_indexing_rpc_requests_total" ? handlerReads : otherMetric) },
  );
  const logger = { debug() {}, trace() {}, info() {}, warn() {}, error() {}, child: () => logger };
  const common = { logger, metrics };
  const chain = { id: 1, name: "test", viemChain: undefined };
  let rpcRequests = 0;
  const rpc = {
    async request() {
      rpcRequests += 1;
      await new Promise((r) => setTimeout(r, 5)); // a provider's answer takes a while: the handler waits on it
      return encodeAbiParameters([{ type: "string" }], ["https://example.com/avatar.png"]);
    },
  };
  const syncStore = {
    getRpcRequestResults: async ({ requests }: { requests: unknown[] }) => requests.map(() => undefined),
    insertRpcRequestResults: async () => {},
  };
  const eventCount: Record<string, number> = { [EVENT_NAME]: 0 };
  const client = createCachedViemClient({
    common,
    indexingBuild: { chains: [chain], rpcs: [rpc] },
    syncStore,
    eventCount,
  });
  const viem = client.getClient(chain);
  const batch = Array.from({ length: events }, (_, i) => ({
    type: "log",
    chain,
    eventCallback: { name: EVENT_NAME },
    event: {
      log: { address: RESOLVER },
      args: { node: toHex(i + 1, { size: 32 }) as Hex, key: "avatar" },
      block: { number: BigInt(1_000 + i) },
    },
  }));

  // The runtime's order: prefetch the batch, then each event's handler in turn (indexing/index.js).
  await client.prefetch({ events: batch });
  for (const event of batch) {
    eventCount[EVENT_NAME]! += 1;
    client.event = event;
    await viem.readContract({
      abi: TEXT_ABI,
      address: RESOLVER,
      functionName: "text",
      args: [event.event.args.node, event.event.args.key],
    });
  }
  return { byType, rpcRequests };
}

describe("Ponder's prediction of handler reads within a batch (patch 033)", () => {
  it("waits for the first read of an event only, and asks for the rest of its batch ahead", async () => {
    const { byType, rpcRequests } = await readsOfOneBatch(50);
    expect(byType).toEqual({ rpc: 1, prefetch_rpc: 49 });
    // Each read asked once: the prediction covers the events after the learning one, not that one again.
    expect(rpcRequests).toBe(50);
  });
});
