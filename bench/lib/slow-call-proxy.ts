import { type LoopbackServer, startLoopbackServer } from "../../test/support/loopback-server";
import { writeManifestCopy } from "../../test/support/manifest-copy";

/*
 * A JSON-RPC proxy in front of a devnet chain that answers `eth_call` no sooner than `delayMs` (a request, or a batch,
 * holding one waits once), and everything else as fast as the chain does: a hosted provider's past-block call, where
 * a handler that waits for its answer is what costs the time.
 */
export async function startSlowCallProxy(upstream: string, delayMs: number): Promise<LoopbackServer> {
  return startLoopbackServer(async (_req, res, body) => {
    const parsed = JSON.parse(body.toString("utf8")) as unknown;
    const calls = (Array.isArray(parsed) ? parsed : [parsed]) as { method?: string }[];
    const slow = calls.some((c) => c.method === "eth_call")
      ? new Promise((resolve) => setTimeout(resolve, delayMs))
      : undefined;
    const answer = await fetch(upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new Uint8Array(body),
    });
    const bytes = Buffer.from(await answer.arrayBuffer());
    await slow;
    res.writeHead(answer.status, { "content-type": "application/json" });
    res.end(bytes);
  });
}

/** A copy of a devnet manifest (next to it) whose chains are reached through slow-call proxies; returns its path. */
export async function withSlowCalls(
  manifestPath: string,
  delayMs: number,
): Promise<{ manifestPath: string; close(): Promise<void> }> {
  const proxies: LoopbackServer[] = [];
  const path = await writeManifestCopy(manifestPath, `manifest-slow-calls-${delayMs}ms`, async (_, url) => {
    const proxy = await startSlowCallProxy(url, delayMs);
    proxies.push(proxy);
    return proxy.url;
  });
  return { manifestPath: path, close: async () => void (await Promise.all(proxies.map((p) => p.close()))) };
}
