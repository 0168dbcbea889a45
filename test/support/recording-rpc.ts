import { type LoopbackServer, startLoopbackServer } from "./loopback-server";

/** One JSON-RPC call that passed through a recording proxy (each call of a batch on its own). */
export interface RecordedCall {
  method: string;
  params: unknown[];
}

/**
 * A JSON-RPC proxy on 127.0.0.1 that forwards every request to `upstream` as it came (a batch stays a batch) and
 * records each call: what an indexer asked its RPC provider for.
 */
export async function startRecordingRpc(upstream: string): Promise<LoopbackServer & { calls: RecordedCall[] }> {
  const calls: RecordedCall[] = [];
  const server = await startLoopbackServer(async (_req, res, body) => {
    const parsed = JSON.parse(body.toString("utf8")) as unknown;
    for (const call of Array.isArray(parsed) ? parsed : [parsed]) {
      const { method, params } = call as { method?: string; params?: unknown[] };
      calls.push({ method: String(method), params: params ?? [] });
    }
    const answer = await fetch(upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new Uint8Array(body),
    });
    res.writeHead(answer.status, { "content-type": "application/json" });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  return Object.assign(server, { calls });
}

/** The lowest block an `eth_getLogs` call of `calls` asked for (its fromBlock, or the block of its blockHash-less range). */
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
