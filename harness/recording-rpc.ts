import { type LoopbackServer, startLoopbackServer } from "./loopback-server";

/** One JSON-RPC call that passed through a recording proxy (each call of a batch on its own). */
export interface RecordedCall {
  method: string;
  params: unknown[];
  /** The request's User-Agent: which part of nameindex asked (src/lib/rpc-transport.ts names them). */
  userAgent: string;
  /** An eth_getLogs call's answer (its logs), kept with `keepLogs`: what the provider sent back. */
  result?: unknown;
}

/**
 * A JSON-RPC proxy on 127.0.0.1 that forwards every request to `upstream` as it came (a batch stays a batch) and
 * records each call: what an indexer asked its RPC provider for; with `keepLogs`, also the logs each eth_getLogs got.
 */
export async function startRecordingRpc(
  upstream: string,
  { keepLogs = false }: { keepLogs?: boolean } = {},
): Promise<LoopbackServer & { calls: RecordedCall[] }> {
  const calls: RecordedCall[] = [];
  const server = await startLoopbackServer(async (req, res, body) => {
    const parsed = JSON.parse(body.toString("utf8")) as unknown;
    const logCalls = new Map<unknown, RecordedCall>();
    for (const call of Array.isArray(parsed) ? parsed : [parsed]) {
      const { method, params, id } = call as { method?: string; params?: unknown[]; id?: unknown };
      const recorded: RecordedCall = {
        method: String(method),
        params: params ?? [],
        userAgent: String(req.headers["user-agent"] ?? ""),
      };
      calls.push(recorded);
      if (keepLogs && recorded.method === "eth_getLogs") logCalls.set(id, recorded);
    }
    const answer = await fetch(upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new Uint8Array(body),
    });
    const answerBody = Buffer.from(await answer.arrayBuffer());
    if (logCalls.size > 0 && answer.ok) {
      const replies = JSON.parse(answerBody.toString("utf8")) as unknown;
      for (const reply of Array.isArray(replies) ? replies : [replies]) {
        const { id, result } = reply as { id?: unknown; result?: unknown };
        const recorded = logCalls.get(id);
        if (recorded) recorded.result = result;
      }
    }
    res.writeHead(answer.status, { "content-type": "application/json" });
    res.end(answerBody);
  });
  return Object.assign(server, { calls });
}

/** NewOwner(bytes32,bytes32,address): the one topic of the label prefetch's requests. */
const NEW_OWNER_TOPIC = "0xce0457fe73731f824cc272376169235128c118b49d344817417c6d108d155e82";

/**
 * Whether an eth_getLogs call is the label prefetch's (src/lib/healing/prefetch.ts: the registries' NewOwner logs, one
 * topic) rather than Ponder's sync (whose registry filters ask for several events, a topic array).
 */
export function isLabelPrefetch(call: RecordedCall): boolean {
  const filter = call.params[0] as { topics?: unknown[] } | undefined;
  return call.method === "eth_getLogs" && filter?.topics?.length === 1 && filter.topics[0] === NEW_OWNER_TOPIC;
}

/** The lowest fromBlock of the `eth_getLogs` calls among `calls` (null without one). */
export function lowestLogsBlock(calls: RecordedCall[]): number | null {
  let lowest: number | null = null;
  for (const call of calls) {
    if (call.method !== "eth_getLogs") continue;
    const from = (call.params[0] as { fromBlock?: string } | undefined)?.fromBlock;
    if (typeof from !== "string" || !from.startsWith("0x")) continue;
    const n = Number(from);
    lowest = lowest === null ? n : Math.min(lowest, n);
  }
  return lowest;
}
