import { createPublicClient, http, type Transport, webSocket } from "viem";
import { NAMEINDEX_VERSION } from "../../lib/versions";
import type { BlockRef } from "./at-block";
import { SubgraphQueryError } from "./errors";
import { BLOCK_RPC } from "./limits";

/*
 * The ENS root chain's blocks that /subgraph asks the operator's RPC provider for (a `block:` or `_change_block` the
 * index holds no row of, the head's hash for `_meta`). Clients choose those blocks, so what they cost is bounded, per
 * process: meta.ts spends one unit of a `blockBudget` (BLOCK_RPC.perSecond a second after a burst of BLOCK_RPC.burst)
 * before each lookup that may reach the provider, and each is one request here, with no retry and a
 * BLOCK_RPC.timeoutMs timeout, identical ones in flight shared. A lookup over the budget is refused at once with an
 * error that says so; meta.ts keeps the answers (also "no such block").
 *
 * Not Ponder's `publicClients`: their requests retry nine times with backoff (a malformed hash held a request for
 * 40-60 s), and they share the indexer's queue with its sync.
 */

export type BlockQuery = { number: number } | { hash: string };

export interface ChainBlocks {
  /** The chain's block, or null when the chain has none; a SubgraphQueryError when it cannot be asked now. */
  block(query: BlockQuery): Promise<BlockRef | null>;
}

export interface BlockRpcBounds {
  perSecond: number;
  burst: number;
  timeoutMs: number;
}

interface RpcBlock {
  number: string | null;
  hash: string | null;
  parentHash: string;
  timestamp: string;
}

/** The chain at `rpcUrl` (RPC_URL_<chainId>), one request per lookup, within `timeoutMs`. */
export function rpcChainBlocks(rpcUrl: string, timeoutMs: number = BLOCK_RPC.timeoutMs): ChainBlocks {
  const client = createPublicClient({ transport: transportOf(rpcUrl, timeoutMs) });
  const inFlight = new Map<string, Promise<BlockRef | null>>();
  return {
    block(query) {
      const key = "number" in query ? `n${query.number}` : `h${query.hash.toLowerCase()}`;
      let asked = inFlight.get(key);
      if (!asked) {
        asked = ask(client, query, timeoutMs).finally(() => inFlight.delete(key));
        inFlight.set(key, asked);
      }
      return asked;
    },
  };
}

/**
 * What lookups that may reach the provider may cost: `spend` passes at most `burst` times at once, then `perSecond`
 * times a second (a token bucket), and otherwise throws the error a client reads. `now` in milliseconds.
 */
export function blockBudget(
  bounds: Omit<BlockRpcBounds, "timeoutMs"> = BLOCK_RPC,
  now: () => number = () => performance.now(),
): { spend(query: BlockQuery): void } {
  let tokens = bounds.burst;
  let last = now();
  return {
    spend(query) {
      const t = now();
      tokens = Math.min(bounds.burst, tokens + ((t - last) / 1000) * bounds.perSecond);
      last = t;
      if (tokens < 1) throw overBudget(query, bounds);
      tokens -= 1;
    },
  };
}

async function ask(
  client: ReturnType<typeof createPublicClient>,
  query: BlockQuery,
  timeoutMs: number,
): Promise<BlockRef | null> {
  let block: RpcBlock | null;
  try {
    block = (await client.request(
      "number" in query
        ? { method: "eth_getBlockByNumber", params: [`0x${query.number.toString(16)}`, false] }
        : { method: "eth_getBlockByHash", params: [query.hash.toLowerCase() as `0x${string}`, false] },
      { retryCount: 0, dedupe: false },
    )) as RpcBlock | null;
  } catch (error) {
    const timedOut = (error as { name?: string }).name === "TimeoutError";
    throw new SubgraphQueryError(
      timedOut
        ? `The chain's RPC did not answer for ${describe(query)} within ${timeoutMs / 1000} s; try again later`
        : `The chain's RPC failed to look up ${describe(query)}; try again later`,
    );
  }
  if (!block || block.hash === null || block.number === null) return null;
  return {
    number: Number(block.number),
    hash: block.hash,
    parentHash: block.parentHash,
    timestamp: Number(block.timestamp),
  };
}

function overBudget(query: BlockQuery, bounds: Omit<BlockRpcBounds, "timeoutMs">): SubgraphQueryError {
  return new SubgraphQueryError(
    `Looking up ${describe(query)} is refused for now: this endpoint looks up at most ${bounds.perSecond} blocks a second it holds no answer for (after a burst of ${bounds.burst}), to bound what it asks its RPC provider; try again shortly`,
  );
}

const describe = (query: BlockQuery) =>
  "number" in query ? `block number ${query.number}` : `the block ${query.hash}`;

/** Requests one at a time with no retry: the bound counts requests, and a retry would be one it did not count. */
function transportOf(url: string, timeout: number): Transport {
  if (/^wss?:\/\//i.test(url)) return webSocket(url, { retryCount: 0, timeout });
  // Named in the User-Agent as src/lib/rpc-transport.ts names its purposes (a provider's dashboard tells them apart);
  // not added there, since any edit under src/ outside src/api changes the build id. A block is a few KiB of JSON.
  return http(url, {
    retryCount: 0,
    timeout,
    maxResponseBodySize: 1024 * 1024,
    fetchOptions: { headers: { "user-agent": `nameindex/${NAMEINDEX_VERSION} (subgraph-blocks)` } },
  });
}
