import { encodeAbiParameters, type Hex, keccak256, numberToHex } from "viem";
import { startLoopbackServer } from "../loopback-server";

/*
 * A public chain's ENS contracts start millions of blocks in, and an indexer configured for it asks for those
 * blocks. Mining millions of empty blocks on anvil is out of reach here (tens of blocks a second), so the rehearsal's
 * chains start at a high genesis number (anvil --number) and this layer answers for every block below it as an
 * empty block: number, timestamp and hashes consistent with each other (each parentHash is the previous block's
 * hash, and the genesis block's parentHash is patched to the last empty block's), no transactions, no logs.
 * Everything from the genesis block on is anvil's own answer.
 */

export interface PrehistoryOptions {
  /** The anvil to stand in front of. */
  upstream: string;
  chainId: number;
  /** Seconds between the empty blocks (the chain's block time); shortened if the history would start before 1970. */
  blockTimeSeconds: number;
}

export interface Prehistory {
  url: string;
  genesisNumber: number;
  /** Calls by method, and how many of them this layer answered itself (`<method>:local`). */
  calls(): Record<string, number>;
  close(): Promise<void>;
}

type RpcRequest = { jsonrpc?: string; id?: unknown; method?: string; params?: unknown[] };
type RpcResponse = { jsonrpc: "2.0"; id: unknown; result?: unknown; error?: { code: number; message: string } };
type Block = Record<string, unknown> & { number: Hex; hash: Hex; parentHash: Hex; timestamp: Hex };

const EMPTY_TRIE_ROOT = "0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421";
const ZERO_BLOOM = `0x${"00".repeat(256)}`;
/** Hashes of empty blocks handed out, so eth_getBlockByHash can answer for them (bounded: oldest forgotten first). */
const MAX_REMEMBERED_HASHES = 200_000;

async function post(url: string, body: unknown): Promise<unknown> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`upstream answered HTTP ${res.status}`);
  return res.json();
}

function blockTag(tag: unknown): number | undefined {
  return typeof tag === "string" && tag.startsWith("0x") ? Number(tag) : undefined;
}

export async function startPrehistory(options: PrehistoryOptions): Promise<Prehistory> {
  const genesis = (
    (await post(options.upstream, {
      jsonrpc: "2.0",
      id: 1,
      method: "eth_getBlockByNumber",
      params: ["earliest", false],
    })) as RpcResponse
  ).result as Block;
  const genesisNumber = Number(genesis.number);
  const genesisTimestamp = Number(genesis.timestamp);
  const blockTime = Math.min(options.blockTimeSeconds, Math.floor((genesisTimestamp - 1) / Math.max(1, genesisNumber)));
  const rememberedHashes = new Map<Hex, number>();

  const hashOf = (n: number): Hex =>
    n < 0
      ? `0x${"00".repeat(32)}`
      : keccak256(
          encodeAbiParameters(
            [{ type: "string" }, { type: "uint256" }, { type: "uint256" }],
            ["nameindex prehistory", BigInt(options.chainId), BigInt(n)],
          ),
        );

  const emptyBlock = (n: number): Block => {
    const hash = hashOf(n);
    rememberedHashes.set(hash, n);
    if (rememberedHashes.size > MAX_REMEMBERED_HASHES) rememberedHashes.delete(rememberedHashes.keys().next().value!);
    return {
      ...genesis,
      number: numberToHex(n),
      hash,
      parentHash: hashOf(n - 1),
      timestamp: numberToHex(genesisTimestamp - (genesisNumber - n) * blockTime),
      transactions: [],
      transactionsRoot: EMPTY_TRIE_ROOT,
      receiptsRoot: EMPTY_TRIE_ROOT,
      logsBloom: ZERO_BLOOM,
      gasUsed: "0x0",
    };
  };
  /** anvil's genesis block, its parent being the last empty block. */
  const patchGenesis = (block: unknown) =>
    block && (block as Block).number === genesis.number
      ? { ...(block as Block), parentHash: hashOf(genesisNumber - 1) }
      : block;

  /** Answers a request locally, or returns the request to forward (possibly rewritten) and how to patch its result. */
  const route = (
    req: RpcRequest,
  ): { local: unknown } | { forward: RpcRequest; patch?: (result: unknown) => unknown } => {
    const params = req.params ?? [];
    switch (req.method) {
      case "eth_getBlockByNumber": {
        const n = blockTag(params[0]);
        if (n !== undefined && n < genesisNumber) return { local: emptyBlock(n) };
        return { forward: req, patch: patchGenesis };
      }
      case "eth_getBlockByHash": {
        const n = rememberedHashes.get(String(params[0]).toLowerCase() as Hex);
        if (n !== undefined) return { local: emptyBlock(n) };
        return { forward: req, patch: patchGenesis };
      }
      case "eth_getBlockReceipts": {
        const n = blockTag(params[0]);
        if (n !== undefined && n < genesisNumber) return { local: [] };
        return { forward: req };
      }
      case "eth_getLogs": {
        const filter = { ...(params[0] as Record<string, unknown>) };
        if (typeof filter.blockHash === "string" && rememberedHashes.has(filter.blockHash.toLowerCase() as Hex))
          return { local: [] };
        const to = blockTag(filter.toBlock);
        if (to !== undefined && to < genesisNumber) return { local: [] };
        const from = blockTag(filter.fromBlock);
        if (filter.fromBlock === "earliest" || (from !== undefined && from < genesisNumber))
          filter.fromBlock = genesis.number;
        return { forward: { ...req, params: [filter, ...params.slice(1)] } };
      }
      default:
        return { forward: req };
    }
  };

  const calls: Record<string, number> = {};
  const answer = async (body: RpcRequest | RpcRequest[]): Promise<unknown> => {
    const list = Array.isArray(body) ? body : [body];
    const routed = list.map(route);
    routed.forEach((r, i) => {
      const key = `${list[i]!.method}${"local" in r ? ":local" : ""}`;
      calls[key] = (calls[key] ?? 0) + 1;
    });
    const forwards = routed.flatMap((r) => ("forward" in r ? [r.forward] : []));
    const upstream =
      forwards.length === 0
        ? []
        : Array.isArray(body)
          ? ((await post(options.upstream, forwards)) as RpcResponse[])
          : [(await post(options.upstream, forwards[0])) as RpcResponse];
    const byId = new Map(upstream.map((r, i) => [forwards[i], r]));
    const out = list.map((req, i): RpcResponse => {
      const r = routed[i]!;
      if ("local" in r) return { jsonrpc: "2.0", id: req.id ?? null, result: r.local };
      const res = byId.get(r.forward)!;
      return res.error || !r.patch ? res : { ...res, result: r.patch(res.result) };
    });
    return Array.isArray(body) ? out : out[0];
  };

  const server = await startLoopbackServer(
    async (_req, res, body) => {
      let status = 200;
      let payload: unknown;
      try {
        payload = await answer(JSON.parse(body.toString("utf8")));
      } catch (error) {
        status = error instanceof SyntaxError ? 400 : 502;
        payload = {
          jsonrpc: "2.0",
          id: null,
          error: {
            code: error instanceof SyntaxError ? -32700 : -32603,
            message: `prehistory: ${(error as Error).message}`,
          },
        };
      }
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(payload));
    },
    { keepAliveTimeoutMs: 60_000 },
  );
  return { url: server.url, genesisNumber, calls: () => ({ ...calls }), close: server.close };
}
