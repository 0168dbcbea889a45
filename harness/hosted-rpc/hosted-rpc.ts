import type http from "node:http";
import { startLoopbackServer } from "../loopback-server";
import { seededRandom } from "../seeded-random";
import { type CallPlan, forwardPlans, type InjectedKind, planCall } from "./call-plan";
import { ChainView, HeadTracker } from "./chain-view";
import {
  checked,
  DEFAULTS,
  type HostedRpcOptions,
  INJECTED_KINDS,
  type Settings,
  withoutUndefined,
} from "./hosted-rpc-settings";
import { isRecord, rpcError, Upstream, UpstreamUnreachableError } from "./jsonrpc";
import {
  getLogsPolicy,
  INVALID_REQUEST,
  PARSE_ERROR,
  type ProviderStyle,
  rateLimitError,
  serverErrorBody,
} from "./provider-errors";

/*
 * A JSON-RPC proxy that behaves like a hosted provider (Alchemy, Infura, QuickNode) in front of a local node: its
 * eth_getLogs limits and their exact error texts, network latency, a requests-per-second limit answered with 429,
 * rare 5xx answers and timeouts, and now and then a node a few blocks behind the head. The rehearsal indexes through
 * it to see what an operator on a real provider gets; a seeded PRNG keeps a run's mix of faults reproducible in
 * distribution (not in order: concurrent requests arrive in any order).
 */

export type { HostedRpcOptions } from "./hosted-rpc-settings";
export type { ProviderStyle } from "./provider-errors";

export interface HostedRpc {
  url: string;
  /** Calls by JSON-RPC method, each call of a batch counted (that is what a provider bills); 429-refused ones are not. */
  calls(): Record<string, number>;
  /** HTTP requests received. */
  requests(): number;
  /** What was injected, by kind: rangeCap, resultCap, rateLimited, serverError, timeout, lagging. */
  injected(): Record<InjectedKind, number>;
  resetCounters(): void;
  /** Changes faults at run time (e.g. a 429 storm for 5 s); a new seed restarts the PRNG. */
  configure(partial: Partial<HostedRpcOptions>): void;
  close(): Promise<void>;
}

export async function startHostedRpc(options: HostedRpcOptions): Promise<HostedRpc> {
  let settings = checked({ ...DEFAULTS, ...withoutUndefined(options) } as Settings);
  let random = seededRandom(settings.seed);
  const upstream = new Upstream(settings.upstream);
  const tracker = new HeadTracker();
  let calls: Record<string, number> = {};
  let requests = 0;
  let injected = Object.fromEntries(INJECTED_KINDS.map((k) => [k, 0])) as Record<InjectedKind, number>;
  const inject = (kind: InjectedKind) => void (injected[kind] += 1);
  /** Arrival times of the requests let through in the last second. */
  const window: number[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const delay = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(() => (timers.delete(t), resolve()), ms);
      timers.add(t);
    });

  const overRateLimit = (now: number): boolean => {
    const max = settings.maxRequestsPerSecond;
    if (!(max > 0) || !Number.isFinite(max)) return false;
    while (window.length > 0 && window[0]! <= now - 1000) window.shift();
    if (window.length >= max) return true;
    window.push(now);
    return false;
  };

  /** Plans every call, forwards the ones for upstream in one request (a batch stays a batch), then finishes them. */
  const dispatch = async (
    items: unknown[],
    isBatch: boolean,
    lagging: boolean,
  ): Promise<{ status: number; body: unknown }> => {
    const ids = items.map((item) => (isRecord(item) ? item.id : null) ?? null);
    const view = new ChainView(upstream, tracker, lagging ? settings.lagBlocks : undefined);
    const policy = getLogsPolicy(settings.style, settings.getLogsMaxRange, settings.getLogsMaxResults);
    const ctx = {
      view,
      tracker,
      style: settings.style,
      policy,
      lagGetLogsBeyondHead: settings.lagGetLogsBeyondHead,
      inject,
    };
    try {
      const plans = await Promise.all(
        items.map((item, i) =>
          planCall(item, ctx).catch((error: unknown): CallPlan => {
            if (error instanceof UpstreamUnreachableError) throw error;
            return { local: rpcError(ids[i], { code: -32603, message: (error as Error).message }), status: 200 };
          }),
        ),
      );
      const { replies, status: upstreamStatus } = await forwardPlans(upstream, plans, isBatch);
      const responses = plans.map((plan, i) => {
        if ("local" in plan) return plan.local;
        const reply = { ...replies.get(i)!, id: ids[i] };
        return plan.finish ? plan.finish(reply) : reply;
      });
      if (isBatch) return { status: 200, body: responses };
      const only = plans[0]!;
      return { status: "local" in only ? only.status : upstreamStatus, body: responses[0] };
    } catch (error) {
      if (!(error instanceof UpstreamUnreachableError)) throw error;
      const one = (id: unknown) => rpcError(id, { code: -32603, message: error.message });
      return { status: 502, body: isBatch ? ids.map(one) : one(ids[0]) };
    }
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse, raw: Buffer) => {
    const arrived = performance.now();
    requests += 1;
    const latency = Math.max(0, settings.latencyMs + (random() * 2 - 1) * settings.jitterMs);
    const send = async (status: number, body: string, headers: Record<string, string> = {}) => {
      await delay(latency);
      if (res.destroyed || res.writableEnded) return;
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(body);
    };

    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString("utf8"));
    } catch {
      return send(400, JSON.stringify(rpcError(null, PARSE_ERROR)));
    }
    const isBatch = Array.isArray(parsed);
    const items: unknown[] = isBatch ? (parsed as unknown[]) : [parsed];
    if (items.length === 0) return send(400, JSON.stringify(rpcError(null, INVALID_REQUEST)));
    const ids = items.map((item) => (isRecord(item) ? item.id : null));

    if (overRateLimit(arrived)) {
      inject("rateLimited");
      const { status, error } = rateLimitError(settings.style, settings.maxRequestsPerSecond);
      const body = isBatch ? ids.map((id) => rpcError(id, error)) : rpcError(ids[0], error);
      return send(status, JSON.stringify(body), { "retry-after": "1" });
    }
    for (const item of items) {
      if (isRecord(item) && typeof item.method === "string") calls[item.method] = (calls[item.method] ?? 0) + 1;
    }

    // Always four draws, so one request's faults do not shift the next one's.
    const [serverDraw, timeoutDraw, lagDraw, kindDraw] = [random(), random(), random(), random()];
    if (serverDraw < settings.serverErrorRate) {
      inject("serverError");
      const status = kindDraw < 0.5 ? 502 : 503;
      const { contentType, body } = serverErrorBody(status, ids, isBatch);
      return send(status, body, { "content-type": contentType });
    }
    if (timeoutDraw < settings.timeoutRate && injected.timeout < settings.maxTimeouts) {
      inject("timeout");
      // Hold past the client's timeout, then drop the connection without an answer.
      await delay(settings.timeoutHoldMs);
      req.socket.destroy();
      return;
    }
    const lagging = lagDraw < settings.lagRate;
    if (lagging) inject("lagging");
    const { status, body } = await dispatch(items, isBatch, lagging);
    return send(status, JSON.stringify(body));
  };

  const server = await startLoopbackServer(handle, {
    // A bug here must not take the rehearsal down: answer like a provider's internal error.
    onError(error, req, res) {
      if (res.headersSent || res.destroyed) return void req.socket.destroy();
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify(rpcError(null, { code: -32603, message: `internal error: ${(error as Error).message}` })));
    },
  });

  return {
    url: server.url,
    calls: () => ({ ...calls }),
    requests: () => requests,
    injected: () => ({ ...injected }),
    resetCounters() {
      calls = {};
      requests = 0;
      injected = Object.fromEntries(INJECTED_KINDS.map((k) => [k, 0])) as Record<InjectedKind, number>;
    },
    configure(partial) {
      if (partial.upstream !== undefined && partial.upstream !== settings.upstream)
        throw new Error("hosted RPC: the upstream cannot change");
      settings = checked({ ...settings, ...withoutUndefined(partial) });
      if (partial.seed !== undefined) random = seededRandom(partial.seed);
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await server.close();
    },
  };
}

/** The requests per second the fault-free imitation allows (the imitation's default cap): an indexer may start there. */
export const FAULT_FREE_REQUESTS_PER_SECOND = DEFAULTS.maxRequestsPerSecond;

/**
 * An imitation in front of each chain with Alchemy's caps and error texts but no random faults and little latency:
 * what tests of the sync path use (rehearsal-faults.system.test.ts covers the faults).
 */
export async function startFaultFreeProxies(
  nodes: Map<number, { url: string }>,
  seed: number,
): Promise<Map<number, HostedRpc>> {
  const proxies = new Map<number, HostedRpc>();
  for (const [chainId, node] of nodes) {
    proxies.set(
      chainId,
      await startHostedRpc({
        upstream: node.url,
        style: "alchemy",
        latencyMs: 5,
        jitterMs: 5,
        serverErrorRate: 0,
        timeoutRate: 0,
        seed,
      }),
    );
  }
  return proxies;
}
