import type { ProviderError, RpcErrorObject } from "./jsonrpc";

/*
 * What each hosted provider answers when it refuses, worded as the provider words it: Ponder's range splitting
 * (getLogsRetryHelper in @ponder/utils) and viem's retry rules parse these texts, codes and HTTP statuses, so a
 * paraphrase would test nothing. Each answer names where its wording was seen.
 */

export const PROVIDER_STYLES = ["alchemy", "infura", "quicknode"] as const;
export type ProviderStyle = (typeof PROVIDER_STYLES)[number];

/** How a style limits eth_getLogs; built from the style's defaults and the getLogsMaxRange/MaxResults overrides. */
export interface GetLogsPolicy {
  /** Refuse outright, without querying, a range whose toBlock − fromBlock is above this. */
  rejectRangeAbove?: bigint;
  /** Refuse a result of more logs than this, naming a range that fits... */
  maxResults?: number;
  /** ...but only when toBlock − fromBlock is above this (Alchemy: 2K-block ranges have no response-size limit). */
  resultCapAboveRange?: bigint;
}

export function getLogsPolicy(style: ProviderStyle, maxRange?: number, maxResults?: number): GetLogsPolicy {
  switch (style) {
    case "alchemy":
      // Live: from..from+2000 returns 140,192 WETH logs, from..from+2001 is refused
      // (ponder-sh/ponder packages/utils/src/_test/alchemy.test.ts, maxBlockRange = 2000n).
      return { maxResults: maxResults ?? 10_000, resultCapAboveRange: BigInt(maxRange ?? 2_000) };
    case "infura":
      // Documented: at most 10,000 results (code -32005). A block-range refusal was reported in 2026
      // (INFURA/infura#237) but not confirmed elsewhere, so it only applies when getLogsMaxRange is set.
      return {
        maxResults: maxResults ?? 10_000,
        rejectRangeAbove: maxRange === undefined ? undefined : BigInt(maxRange),
      };
    case "quicknode":
      // Live: from..from+10000 succeeds, from..from+10001 is refused (ponder-sh/ponder .../_test/quicknode.test.ts).
      // QuickNode has no result-count refusal we could quote, so getLogsMaxResults does not apply to it.
      return { rejectRangeAbove: BigInt(maxRange ?? 10_000) };
  }
}

/** Alchemy writes its limits as "2K" and "10K". */
const kilo = (n: number): string => (n % 1000 === 0 ? `${n / 1000}K` : String(n));
/** Infura prints the suggested range in uppercase hex ("0xBDE5F8"); Alchemy in lowercase. */
const upperHex = (n: bigint): string => `0x${n.toString(16).toUpperCase()}`;
const lowerHex = (n: bigint): string => `0x${n.toString(16)}`;

/** A range refused without a query: QuickNode's 10,000-block cap, or Infura's reported one when configured. */
export function rangeCapError(style: ProviderStyle, limit: bigint, from: bigint, to: bigint): ProviderError {
  if (style === "infura") {
    // INFURA/infura#237: {"code":-32602,"message":"range 1000000 exceeds limit of 10000"}. Note: @ponder/utils 0.2.18
    // does not recognise this text, so Ponder does not split on it (the rehearsal shows what that costs).
    return { status: 200, error: { code: -32602, message: `range ${to - from} exceeds limit of ${limit}` } };
  }
  // HTTP 413 with {"code":-32614,"message":"eth_getLogs is limited to a 10,000 range"} (github.com/eternalsafe/wallet#57,
  // OffchainLabs/arbitrum-sdk#609); getLogsRetryHelper matches /limited to a ([\d,.]+)/ and splits by that number.
  return {
    status: 413,
    error: { code: -32614, message: `eth_getLogs is limited to a ${Number(limit).toLocaleString("en-US")} range` },
  };
}

/** Too many logs: the provider names the range [from, suggestedTo] that fits under its cap. */
export function resultCapError(
  style: ProviderStyle,
  policy: GetLogsPolicy,
  from: bigint,
  suggestedTo: bigint,
): ProviderError {
  const maxResults = policy.maxResults ?? 10_000;
  if (style === "infura") {
    // ethers-io/ethers.js#4703: {"code":-32005,"data":{"from":"0xBDE5F8","limit":10000,"to":"0x102DBCC"},
    // "message":"query returned more than 10000 results. Try with this block range [0xBDE5F8, 0x102DBCC]."}
    const error: RpcErrorObject = {
      code: -32005,
      data: { from: upperHex(from), limit: maxResults, to: upperHex(suggestedTo) },
      message: `query returned more than ${maxResults} results. Try with this block range [${upperHex(from)}, ${upperHex(suggestedTo)}].`,
    };
    return { status: 200, error };
  }
  // ethers-io/ethers.js#4703: {"code":-32602,"message":"Log response size exceeded. You can make eth_getLogs requests
  // with up to a 2K block range and no limit on the response size, or you can request any block range with a cap of
  // 10K logs in the response. Based on your parameters and the response size limit, this block range should work:
  // [0x0, 0xd043b8]"}
  const range = policy.resultCapAboveRange ?? 2_000n;
  return {
    status: 200,
    error: {
      code: -32602,
      message:
        `Log response size exceeded. You can make eth_getLogs requests with up to a ${kilo(Number(range))} block range ` +
        `and no limit on the response size, or you can request any block range with a cap of ${kilo(maxResults)} logs ` +
        `in the response. Based on your parameters and the response size limit, this block range should work: ` +
        `[${lowerHex(from)}, ${lowerHex(suggestedTo)}]`,
    },
  };
}

/**
 * The largest toBlock from `from` whose logs number at most maxResults, given the block numbers of every log the
 * query matched (in any order). One block with more logs than the cap still gets [from, from]: a provider cannot
 * suggest less than a block.
 */
export function suggestedToBlock(logBlocks: bigint[], from: bigint, maxResults: number): bigint {
  const sorted = [...logBlocks].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const firstOver = sorted[maxResults];
  if (firstOver === undefined) throw new Error("suggestedToBlock: the result is within the cap");
  return firstOver - 1n >= from ? firstOver - 1n : from;
}

/** HTTP 429 bodies. Each is what clients in the wild quote; viem retries all three (codes 429, -32005, -32007). */
export function rateLimitError(style: ProviderStyle, maxRequestsPerSecond: number): ProviderError {
  switch (style) {
    case "alchemy":
      // conduitxyz/node#36, gitcoinco/grants-stack-indexer#156 (429 Too Many Requests).
      return {
        status: 429,
        error: {
          code: 429,
          message:
            "Your app has exceeded its compute units per second capacity. If you have retries enabled, you can safely " +
            "ignore this message. If not, check out https://docs.alchemy.com/reference/throughput",
        },
      };
    case "infura":
      // INFURA/infura#201: 429 {"code":-32005,"message":"project ID request rate exceeded","data":{"rate":
      // {"allowed_rps":50,"backoff_seconds":0,"current_rps":52.3},"see":"https://infura.io/docs/ethereum/json-rpc/ratelimits"}}
      return {
        status: 429,
        error: {
          code: -32005,
          message: "project ID request rate exceeded",
          data: {
            rate: { allowed_rps: maxRequestsPerSecond, backoff_seconds: 1, current_rps: maxRequestsPerSecond + 1 },
            see: "https://infura.io/docs/ethereum/json-rpc/ratelimits",
          },
        },
      };
    case "quicknode":
      // foundry-rs/foundry#4894 and viem's buildRequest.shouldRetry comment: -32007 "N/second request limit reached - ...".
      return {
        status: 429,
        error: {
          code: -32007,
          message: `${maxRequestsPerSecond}/second request limit reached - reduce calls per second or upgrade your account at quicknode.com`,
        },
      };
  }
}

/**
 * A node behind the head asked for logs of a block it does not have. Alchemy's own words, checked live in
 * NomicFoundation/edr crates/edr_eth/src/remote/client.rs (test get_logs_future_from_block): code -32000, no data.
 */
export const UNKNOWN_BLOCK_ERROR: RpcErrorObject = {
  code: -32000,
  message: "One of the blocks specified in filter (fromBlock, toBlock or blockHash) cannot be found.",
};

/** JSON-RPC 2.0's parse error (jsonrpc.org/specification#error_object); sent with HTTP 400. */
export const PARSE_ERROR: RpcErrorObject = { code: -32700, message: "Parse error" };
export const INVALID_REQUEST: RpcErrorObject = { code: -32600, message: "Invalid Request" };

/**
 * A transient backend failure. Providers' 5xx bodies vary (a gateway's HTML page, a JSON-RPC internal error), and
 * clients must cope with both, so the proxy alternates: 502 from the gateway, 503 from the RPC layer.
 */
export function serverErrorBody(
  kind: 502 | 503,
  ids: unknown[],
  isBatch: boolean,
): { contentType: string; body: string } {
  if (kind === 502) {
    return {
      contentType: "text/html",
      body: "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n",
    };
  }
  const one = (id: unknown) => ({
    jsonrpc: "2.0",
    id: id ?? null,
    error: { code: -32603, message: "service temporarily unavailable" },
  });
  return { contentType: "application/json", body: JSON.stringify(isBatch ? ids.map(one) : one(ids[0])) };
}
