import type { AppConfig } from "../config";
import { chainsOf } from "../plugins/requirements";
import { FinalityGuard, type GuardedChain, ponderFinalityBlocks, ReorgBeyondFinalityError } from "./deep-reorg-guard";

/*
 * Runs the deep-reorg guard (deep-reorg-guard.ts) beside indexing. Started by the registration entry, which only
 * `ponder start` (the one writer) executes, never an API-only replica (`ponder serve`).
 */

const CHECK_INTERVAL_MS = 2_000;
const STARTED = Symbol.for("nameindex.finalityGuard");

async function rpcBlock(url: string, tag: number | "latest"): Promise<{ number: number; hash: string } | null> {
  const param = tag === "latest" ? "latest" : `0x${tag.toString(16)}`;
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_getBlockByNumber", params: [param, false] }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await res.json()) as { result?: { number: string; hash: string } | null; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result ? { number: Number(body.result.number), hash: body.result.hash } : null;
}

export function startFinalityWatch(config: AppConfig): void {
  const globals = globalThis as Record<symbol, unknown>;
  // `ponder dev` reloads indexing files; one guard per process.
  if (globals[STARTED]) return;
  globals[STARTED] = true;
  const chains: GuardedChain[] = chainsOf(config.namespace, config.plugins)
    // A chain with an END_BLOCK is never followed at its head.
    .filter((c) => !config.endBlocks.has(c.id) && config.rpcUrls.has(c.id))
    .map((c) => ({
      ...c,
      finality: ponderFinalityBlocks(c.id),
      block: (tag) => rpcBlock(config.rpcUrls.get(c.id)!, tag),
    }));
  if (chains.length === 0) return;
  const guard = new FinalityGuard(chains);
  let checking = false;
  const timer = setInterval(() => {
    if (checking) return;
    checking = true;
    guard
      .check()
      .finally(() => {
        checking = false;
      })
      .catch((error: unknown) => {
        // RPC hiccups only delay the next look; a changed final block stops the process.
        if (!(error instanceof ReorgBeyondFinalityError)) return;
        clearInterval(timer);
        console.error(error.message);
        // Ponder shuts down gracefully on an uncaught error but exits 75 ("try again"); a restart would resume on the
        // abandoned branch's final rows, so the exit code says it failed for good.
        process.on("exit", () => {
          process.exitCode = 1;
        });
        setImmediate(() => {
          throw error;
        });
      });
  }, CHECK_INTERVAL_MS);
  timer.unref();
}
