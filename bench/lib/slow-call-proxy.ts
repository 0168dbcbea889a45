import { type LoopbackServer, startLoopbackServer } from "../../harness/loopback-server";
import { writeManifestCopy } from "../../harness/manifest-copy";

/*
 * A JSON-RPC proxy in front of a devnet chain that answers `eth_call` no sooner than `delayMs` (a request, or a batch,
 * holding one waits once), and everything else as fast as the chain does: a hosted provider's past-block call, where
 * a handler that waits for its answer is what costs the time.
 *
 * A provider executes a call on its own machines; the devnet's chain executes it on the two cores the indexer runs
 * on (~2 ms of anvil and proxy CPU a call). So the proxy remembers each answer to a call at a numbered block (which
 * cannot change) and answers it again from memory, after the same delay: a second run over the same chain then
 * measures the indexer beside a provider, not beside the provider's work. A call at a block tag (`latest`) is never
 * remembered.
 */

interface JsonRpcRequest {
  id?: unknown;
  method?: string;
  params?: unknown[];
}

/** How many eth_calls the chain answered and how many were answered from memory, since the last `reset`. */
export interface CallCounts {
  executed: number;
  remembered: number;
}

export interface SlowCallProxy extends LoopbackServer {
  counts(): CallCounts;
  reset(): void;
}

/** The key of a call whose answer cannot change: eth_call at a block number. */
function rememberedKey(request: JsonRpcRequest): string | undefined {
  if (request.method !== "eth_call") return undefined;
  const block = request.params?.[1];
  return typeof block === "string" && /^0x[0-9a-f]+$/i.test(block) ? JSON.stringify(request.params) : undefined;
}

export async function startSlowCallProxy(upstream: string, delayMs: number): Promise<SlowCallProxy> {
  const memory = new Map<string, Record<string, unknown>>();
  const counts: CallCounts = { executed: 0, remembered: 0 };
  const server = await startLoopbackServer(async (_req, res, body) => {
    const parsed = JSON.parse(body.toString("utf8")) as JsonRpcRequest | JsonRpcRequest[];
    const calls = Array.isArray(parsed) ? parsed : [parsed];
    const slow = calls.some((c) => c.method === "eth_call")
      ? new Promise((resolve) => setTimeout(resolve, delayMs))
      : undefined;
    const keys = calls.map(rememberedKey);
    const known = keys.map((key) => (key === undefined ? undefined : memory.get(key)));
    if (known.every((answer) => answer !== undefined)) {
      counts.remembered += calls.length;
      const answers = calls.map((c, i) => ({ ...known[i], jsonrpc: "2.0", id: c.id }));
      await slow;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(Array.isArray(parsed) ? answers : answers[0]));
      return;
    }
    const answer = await fetch(upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new Uint8Array(body),
    });
    const bytes = Buffer.from(await answer.arrayBuffer());
    if (answer.ok && keys.some((key) => key !== undefined)) {
      const answered = JSON.parse(bytes.toString("utf8")) as Record<string, unknown> | Record<string, unknown>[];
      const byId = new Map((Array.isArray(answered) ? answered : [answered]).map((a) => [JSON.stringify(a.id), a]));
      for (const [i, key] of keys.entries()) {
        const item = byId.get(JSON.stringify(calls[i]!.id));
        if (key === undefined || !item) continue;
        counts.executed++;
        const { id: _id, ...rest } = item;
        memory.set(key, rest);
      }
    }
    await slow;
    res.writeHead(answer.status, { "content-type": "application/json" });
    res.end(bytes);
  });
  return {
    ...server,
    counts: () => ({ ...counts }),
    reset: () => Object.assign(counts, { executed: 0, remembered: 0 }),
  };
}

/** A copy of a devnet manifest (next to it) whose chains are reached through slow-call proxies; returns its path. */
export async function withSlowCalls(
  manifestPath: string,
  delayMs: number,
): Promise<{ manifestPath: string; counts(): CallCounts; reset(): void; close(): Promise<void> }> {
  const proxies: SlowCallProxy[] = [];
  const path = await writeManifestCopy(manifestPath, `manifest-slow-calls-${delayMs}ms`, async (_, url) => {
    const proxy = await startSlowCallProxy(url, delayMs);
    proxies.push(proxy);
    return proxy.url;
  });
  return {
    manifestPath: path,
    counts: () =>
      proxies.reduce(
        (sum, p) => {
          const c = p.counts();
          return { executed: sum.executed + c.executed, remembered: sum.remembered + c.remembered };
        },
        { executed: 0, remembered: 0 },
      ),
    reset: () => {
      for (const p of proxies) p.reset();
    },
    close: async () => void (await Promise.all(proxies.map((p) => p.close()))),
  };
}
