import type http from "node:http";
import { startLoopbackServer } from "../../../harness/loopback-server";
import { seededRandom } from "../../../harness/seeded-random";

/*
 * A JSON-RPC proxy that misbehaves like a real provider on a share of calls: 5xx, JSON-RPC error bodies, 429 rate
 * limits, requests that hang past the client's timeout, slow answers, bodies cut short and reset connections.
 * A seeded PRNG picks the fault per request, so a run's mix is reproducible in distribution (not in order: concurrent
 * requests arrive in any order).
 */

export const FAULT_KINDS = ["http500", "rpcError", "rateLimit", "timeout", "slow", "truncated", "reset"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultProxyOptions {
  /** The anvil (or any JSON-RPC) URL to forward to. */
  upstream: string;
  seed: number;
  /** Share of requests that get a fault, 0..1. */
  faultRate: number;
  /** Relative weight of the fault kinds (default: all equal); a kind left out of a given map is disabled. */
  weights?: Partial<Record<FaultKind, number>>;
  /** How long a "timeout" holds a request before dropping it: set it above the client's request timeout. */
  timeoutHoldMs: number;
  /** Delay of a "slow" answer (below the client's timeout, so it still counts as an answer). */
  slowMs: number;
}

export interface FaultProxy {
  url: string;
  /** Requests seen (a batch counts once). */
  requests(): number;
  /** Faults injected, by kind. */
  counts(): Record<FaultKind, number>;
  /** Faults injected, by the request's User-Agent, then by kind (nameindex names the sender's purpose there). */
  countsByAgent(): Record<string, Record<FaultKind, number>>;
  /** Faulted requests by JSON-RPC method (batch: "batch"). */
  faultedMethods(): Record<string, number>;
  /** Changes the fault rate (0 lets everything pass) and, when given, the kinds' weights from now on. */
  setFaults(rate: number, weights?: Partial<Record<FaultKind, number>>): void;
  close(): Promise<void>;
}

type JsonRpcRequest = { id?: unknown; method?: string };

/** A JSON-RPC error per request of the (possibly batch) body: codes both Ponder and viem retry. */
function errorBody(parsed: JsonRpcRequest | JsonRpcRequest[] | undefined, code: number, message: string): string {
  const one = (r: JsonRpcRequest | undefined) => ({ jsonrpc: "2.0", id: r?.id ?? null, error: { code, message } });
  return JSON.stringify(Array.isArray(parsed) ? parsed.map(one) : one(parsed));
}

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const random = seededRandom(options.seed);
  let faultRate = options.faultRate;
  const weightsOf = (w?: Partial<Record<FaultKind, number>>) => FAULT_KINDS.map((k) => w?.[k] ?? (w ? 0 : 1));
  let weights = weightsOf(options.weights);
  let totalWeight = weights.reduce((s, w) => s + w, 0);
  const noFaults = () => Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
  const counts = noFaults();
  const byAgent: Record<string, Record<FaultKind, number>> = {};
  const byMethod: Record<string, number> = {};
  let requests = 0;
  const held = new Set<NodeJS.Timeout>();

  const pick = (): FaultKind | "pass" => {
    if (random() >= faultRate || totalWeight === 0) return "pass";
    let r = random() * totalWeight;
    for (let i = 0; i < FAULT_KINDS.length; i++) {
      r -= weights[i]!;
      if (r < 0) return FAULT_KINDS[i]!;
    }
    return FAULT_KINDS.at(-1)!;
  };

  const forward = async (body: Buffer): Promise<{ status: number; contentType: string; body: Buffer }> => {
    const res = await fetch(options.upstream, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new Uint8Array(body),
    });
    return {
      status: res.status,
      contentType: res.headers.get("content-type") ?? "application/json",
      body: Buffer.from(await res.arrayBuffer()),
    };
  };

  const delay = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        held.delete(t);
        resolve();
      }, ms);
      held.add(t);
    });

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer) => {
    requests += 1;
    let parsed: JsonRpcRequest | JsonRpcRequest[] | undefined;
    try {
      parsed = JSON.parse(raw.toString("utf8"));
    } catch {
      parsed = undefined;
    }
    const kind = pick();
    if (kind !== "pass") {
      counts[kind] += 1;
      const agent = req.headers["user-agent"] ?? "";
      byAgent[agent] ??= noFaults();
      byAgent[agent][kind] += 1;
      const method = Array.isArray(parsed) ? "batch" : (parsed?.method ?? "?");
      byMethod[method] = (byMethod[method] ?? 0) + 1;
    }
    const json = (status: number, text: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(text);
    };
    switch (kind) {
      case "http500":
        return json(500, errorBody(parsed, -32603, "fault proxy: internal server error"));
      case "rpcError":
        // -32603 (internal error) is what providers answer on a transient backend failure; both Ponder and viem retry it.
        return json(200, errorBody(parsed, -32603, "fault proxy: upstream backend unavailable"));
      case "rateLimit":
        return json(429, errorBody(parsed, 429, "fault proxy: too many requests"), { "retry-after": "1" });
      case "timeout":
        // Hold past the client's timeout, then drop the connection without an answer.
        await delay(options.timeoutHoldMs);
        req.socket.destroy();
        return;
      case "reset":
        req.socket.resetAndDestroy?.() ?? req.socket.destroy();
        return;
    }
    if (kind === "slow") await delay(options.slowMs);
    let upstream: Awaited<ReturnType<typeof forward>>;
    try {
      upstream = await forward(raw);
    } catch (error) {
      return json(502, errorBody(parsed, -32603, `fault proxy: upstream unreachable (${(error as Error).message})`));
    }
    if (kind === "truncated") {
      // Promise the whole length, send part of it, then cut the connection: the client sees a body ending early.
      res.writeHead(upstream.status, {
        "content-type": upstream.contentType,
        "content-length": String(upstream.body.length),
      });
      res.write(upstream.body.subarray(0, Math.floor(upstream.body.length / 2)));
      setTimeout(() => req.socket.destroy(), 10);
      return;
    }
    res.writeHead(upstream.status, { "content-type": upstream.contentType });
    res.end(upstream.body);
  };

  const server = await startLoopbackServer(handle);

  return {
    url: server.url,
    requests: () => requests,
    counts: () => ({ ...counts }),
    countsByAgent: () => Object.fromEntries(Object.entries(byAgent).map(([agent, c]) => [agent, { ...c }])),
    faultedMethods: () => ({ ...byMethod }),
    setFaults(rate, newWeights) {
      faultRate = rate;
      if (newWeights) {
        weights = weightsOf(newWeights);
        totalWeight = weights.reduce((s, w) => s + w, 0);
      }
    },
    async close() {
      for (const t of held) clearTimeout(t);
      held.clear();
      await server.close();
    },
  };
}
