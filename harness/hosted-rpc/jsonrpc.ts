/** JSON-RPC 2.0 shapes and the small helpers the hosted-RPC imitation shares. */

export interface RpcRequest {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface RpcResponse {
  jsonrpc: "2.0";
  id: unknown;
  result?: unknown;
  error?: RpcErrorObject;
}

/** An answer the proxy makes itself, with the HTTP status a provider sends it with when it is alone in the body. */
export interface ProviderError {
  status: number;
  error: RpcErrorObject;
}

export const rpcResult = (id: unknown, result: unknown): RpcResponse => ({ jsonrpc: "2.0", id: id ?? null, result });
export const rpcError = (id: unknown, error: RpcErrorObject): RpcResponse => ({
  jsonrpc: "2.0",
  id: id ?? null,
  error,
});

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Lowercase, unpadded: how nodes and Alchemy spell quantities. */
export const toQuantity = (n: bigint): string => `0x${n.toString(16)}`;

/** A hex quantity as a bigint, or undefined when it is not one (a tag, a typo, a number). */
export function parseQuantity(value: unknown): bigint | undefined {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]+$/.test(value)) return undefined;
  return BigInt(value);
}

/** The upstream node did not answer at all (refused, reset): the proxy answers 502 like a provider's gateway. */
export class UpstreamUnreachableError extends Error {
  constructor(cause: unknown) {
    super(
      `upstream unreachable: ${cause instanceof Error ? ((cause.cause as Error | undefined)?.message ?? cause.message) : String(cause)}`,
    );
    this.name = "UpstreamUnreachableError";
  }
}

/** Posts JSON-RPC bodies to the upstream node; network failures become UpstreamUnreachableError. */
export class Upstream {
  private nextId = 1;
  constructor(readonly url: string) {}

  async post(body: unknown): Promise<{ status: number; json: unknown }> {
    let res: Response;
    let text: string;
    try {
      res = await fetch(this.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      text = await res.text();
    } catch (error) {
      throw new UpstreamUnreachableError(error);
    }
    try {
      return { status: res.status, json: JSON.parse(text) };
    } catch {
      throw new UpstreamUnreachableError(
        new Error(`HTTP ${res.status} with a body that is not JSON: ${text.slice(0, 200)}`),
      );
    }
  }

  /** One call for the proxy's own bookkeeping (the head, a tag's block); an error answer throws. */
  async call(method: string, params: unknown[]): Promise<unknown> {
    const { json } = await this.post({ jsonrpc: "2.0", id: this.nextId++, method, params });
    const reply = json as RpcResponse;
    if (!isRecord(reply) || reply.error || !("result" in reply)) {
      throw new Error(`upstream ${method} failed: ${JSON.stringify(reply).slice(0, 300)}`);
    }
    return reply.result;
  }
}
