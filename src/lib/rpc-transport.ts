import { type HttpTransportConfig, http, type Transport, webSocket } from "viem";
import { NAMEINDEX_VERSION } from "./versions";

/**
 * The largest JSON-RPC answer read. viem's http() stops at 10 MiB by default, and an eth_getLogs page of a busy
 * mainnet range is larger (Ponder's historical intervals hold up to ~25,000 logs, patch 024; a log is ~0.5–1 KB of
 * JSON); Ponder reads the refusal as neither a range error nor a fatal one, so it retried the same range nine times
 * and then failed the backfill's request. A bound stays, far above any page the sync asks for, against a provider
 * that streams without end.
 */
export const MAX_RPC_RESPONSE_BYTES = 256 * 1024 * 1024;

/**
 * Which part of nameindex sends a request. It is named in the User-Agent, so that an operator's provider dashboard
 * (and a test's proxy) can tell the sync's requests from the API's.
 */
export type RpcPurpose = "indexing" | "label-prefetch" | "resolution" | "indexing-status";

function rpcUserAgent(purpose: RpcPurpose): string {
  return `nameindex/${NAMEINDEX_VERSION} (${purpose})`;
}

/**
 * The JSON-RPC transport for an RPC URL (`RPC_URL_<chainId>` takes http(s):// and ws(s)://). Over HTTP: the project's
 * response bound (`false`: none, for a local devnet's dense blocks) and a User-Agent naming its purpose. Over a
 * WebSocket: the same retries and timeout; a browser-style WebSocket sends no User-Agent of ours.
 */
export function rpcTransport(
  url: string | undefined,
  purpose: RpcPurpose,
  config: HttpTransportConfig = {},
): Transport {
  if (url && /^wss?:\/\//i.test(url))
    return webSocket(url, { retryCount: config.retryCount, retryDelay: config.retryDelay, timeout: config.timeout });
  return http(url, {
    maxResponseBodySize: MAX_RPC_RESPONSE_BYTES,
    fetchOptions: { headers: { "user-agent": rpcUserAgent(purpose) } },
    ...config,
  });
}
