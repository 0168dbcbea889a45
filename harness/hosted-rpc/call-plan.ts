import type { ChainView, HeadTracker } from "./chain-view";
import {
  isRecord,
  parseQuantity,
  type RpcErrorObject,
  type RpcResponse,
  rpcError,
  rpcResult,
  toQuantity,
  type Upstream,
} from "./jsonrpc";
import {
  type GetLogsPolicy,
  INVALID_REQUEST,
  type ProviderStyle,
  rangeCapError,
  resultCapError,
  suggestedToBlock,
  UNKNOWN_BLOCK_ERROR,
} from "./provider-errors";

/** What the proxy does with one call of a request: answer it here, or send it upstream and look at the reply. */
export type CallPlan =
  | { local: RpcResponse; status: number }
  | { forward: { method: string; params: unknown }; finish?: (reply: RpcResponse) => RpcResponse };

export type InjectedKind = "rangeCap" | "resultCap" | "rateLimited" | "serverError" | "timeout" | "lagging";

export interface PlanContext {
  view: ChainView;
  tracker: HeadTracker;
  style: ProviderStyle;
  policy: GetLogsPolicy;
  /** A lagging node asked for logs past its head: "error" answers Alchemy's unknown-block error, "truncate" answers up to its head. */
  lagGetLogsBeyondHead: "error" | "truncate";
  inject(kind: InjectedKind): void;
}

const local = (id: unknown, response: Omit<RpcResponse, "jsonrpc" | "id">, status = 200): CallPlan => ({
  local: { jsonrpc: "2.0", id: id ?? null, ...response },
  status,
});

/** Methods whose answer names a block: a lagging node does not know blocks above its head, so it answers null. */
const NULL_ABOVE_HEAD: Record<string, (result: Record<string, unknown>) => unknown> = {
  eth_getBlockByHash: (r) => r.number,
  eth_getTransactionByHash: (r) => r.blockNumber,
  eth_getTransactionReceipt: (r) => r.blockNumber,
};

export async function planCall(request: unknown, ctx: PlanContext): Promise<CallPlan> {
  if (!isRecord(request) || typeof request.method !== "string") {
    return local(isRecord(request) ? request.id : null, { error: INVALID_REQUEST }, 400);
  }
  const call = { id: request.id, method: request.method, params: request.params };
  const { method, params } = call;
  const forward = (p: unknown = params, finish?: (reply: RpcResponse) => RpcResponse): CallPlan => ({
    forward: { method, params: p },
    finish,
  });
  const { view } = ctx;

  if (method === "eth_getLogs") return planGetLogs(call, ctx);

  if (method === "eth_blockNumber") {
    if (view.lagging) return local(request.id, { result: toQuantity(await view.head()) });
    return forward(params, (reply) => (ctx.tracker.see(parseQuantity(reply.result)), reply));
  }

  if (method === "eth_getBlockByNumber" || method === "eth_getBlockReceipts") {
    const args = Array.isArray(params) ? params : [];
    const isHeadTag = args[0] === "latest" || args[0] === "pending";
    if (!view.lagging) {
      if (method !== "eth_getBlockByNumber" || !isHeadTag) return forward();
      return forward(
        params,
        (reply) => (ctx.tracker.see(isRecord(reply.result) ? parseQuantity(reply.result.number) : undefined), reply),
      );
    }
    const n = await view.resolve(args[0]);
    if (n === undefined) return forward();
    if (n > (await view.head())) return local(request.id, { result: null });
    // "latest" becomes this node's head, so the lagging node's latest block is the one it answers.
    return forward([toQuantity(n), ...args.slice(1)]);
  }

  const blockOf = NULL_ABOVE_HEAD[method];
  if (blockOf && view.lagging) {
    const head = await view.head();
    return forward(params, (reply) => {
      const n = isRecord(reply.result) ? parseQuantity(blockOf(reply.result)) : undefined;
      return n !== undefined && n > head ? rpcResult(reply.id, null) : reply;
    });
  }
  return forward();
}

async function planGetLogs(
  request: { id?: unknown; method: string; params?: unknown },
  ctx: PlanContext,
): Promise<CallPlan> {
  const { view, policy } = ctx;
  const args = Array.isArray(request.params) ? request.params : [];
  const filter = args[0];
  const forwardAsIs: CallPlan = { forward: { method: request.method, params: request.params } };
  if (!isRecord(filter)) return forwardAsIs;

  if (filter.blockHash !== undefined) {
    if (!view.lagging) return forwardAsIs;
    const block = await view.upstreamCall("eth_getBlockByHash", [filter.blockHash, false]);
    const n = isRecord(block) ? parseQuantity(block.number) : undefined;
    if (n === undefined || n > (await view.head())) return local(request.id, { error: UNKNOWN_BLOCK_ERROR });
    return forwardAsIs;
  }

  const from = await view.resolve(filter.fromBlock);
  let to = await view.resolve(filter.toBlock);
  if (from === undefined || to === undefined) return forwardAsIs; // the node judges what we cannot read
  if (view.lagging) {
    const head = await view.head();
    if (from > head) return local(request.id, { error: UNKNOWN_BLOCK_ERROR });
    if (to > head) {
      if (ctx.lagGetLogsBeyondHead === "error") return local(request.id, { error: UNKNOWN_BLOCK_ERROR });
      to = head;
    }
  }

  const range = to - from;
  if (policy.rejectRangeAbove !== undefined && range > policy.rejectRangeAbove) {
    ctx.inject("rangeCap");
    const { status, error } = rangeCapError(ctx.style, policy.rejectRangeAbove, from, to);
    return local(request.id, { error }, status);
  }
  // Tags are pinned to the numbers checked here, so the node answers the very range whose logs are counted.
  const params = [{ ...filter, fromBlock: toQuantity(from), toBlock: toQuantity(to) }, ...args.slice(1)];
  const maxResults = policy.maxResults;
  const capped =
    maxResults !== undefined && (policy.resultCapAboveRange === undefined || range > policy.resultCapAboveRange);
  if (!capped) return { forward: { method: request.method, params } };
  return {
    forward: { method: request.method, params },
    finish: (reply) => {
      if (!Array.isArray(reply.result) || reply.result.length <= maxResults) return reply;
      ctx.inject("resultCap");
      const blocks = reply.result.map((log) => (isRecord(log) ? parseQuantity(log.blockNumber) : undefined) ?? from);
      return rpcError(
        reply.id,
        resultCapError(ctx.style, policy, from, suggestedToBlock(blocks, from, maxResults)).error,
      );
    },
  };
}

/** Sends the forwarded calls upstream with our own ids (clients may repeat or omit theirs) and maps the replies back. */
export async function forwardPlans(
  upstream: Upstream,
  plans: CallPlan[],
  isBatch: boolean,
): Promise<{ replies: Map<number, RpcResponse>; status: number }> {
  const replies = new Map<number, RpcResponse>();
  const forwarded = plans.flatMap((plan, i) => ("forward" in plan ? [{ plan, i }] : []));
  if (forwarded.length === 0) return { replies, status: 200 };
  const body = forwarded.map(({ plan }, k) => ({
    jsonrpc: "2.0",
    id: k,
    method: plan.forward.method,
    params: plan.forward.params,
  }));
  const { status, json } = await upstream.post(isBatch ? body : body[0]);
  for (const reply of Array.isArray(json) ? json : [json]) {
    if (isRecord(reply) && typeof reply.id === "number" && forwarded[reply.id])
      replies.set(forwarded[reply.id]!.i, reply as unknown as RpcResponse);
  }
  // A call the node did not answer one by one (a batch-level error object) gets that error, or a plain one.
  const fallback: RpcErrorObject =
    isRecord(json) && isRecord(json.error)
      ? (json.error as unknown as RpcErrorObject)
      : { code: -32603, message: "upstream gave no answer for this call" };
  for (const { i } of forwarded) if (!replies.has(i)) replies.set(i, rpcError(null, fallback));
  return { replies, status };
}
