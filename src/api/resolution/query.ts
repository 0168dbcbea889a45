import type { Address, Hex } from "viem";
import { z } from "zod";
import { nameInputProblem } from "../../lib/name-input";
import { ABI_MASK_LIMIT } from "../shared/resolution/records";

/*
 * Input of the resolution routes, checked at the edge. Lists are comma-separated (`addresses=60,0` `texts=avatar,url`)
 * or repeated parameters; an empty value means "not asked for". `accelerate=false` forces the onchain path;
 * `trace=true` adds the resolution's protocol trace to the answer.
 */

export const MAX_COIN_TYPES = 20;
export const MAX_TEXT_KEYS = 20;
export const MAX_TEXT_KEY_LENGTH = 256;
export const MAX_CHAIN_IDS = 20;

/** `a,b` and repeated `?x=a&x=b` alike; empty items are dropped. */
const list = z
  .array(z.string())
  .optional()
  .transform((values) =>
    (values ?? [])
      .flatMap((v) => v.split(","))
      .map((v) => v.trim())
      .filter((v) => v !== ""),
  );

const coinTypes = list
  .pipe(
    z
      .array(
        z
          .string()
          .regex(/^\d{1,78}$/, "each coin type must be a non-negative integer")
          // The regex may have failed already (zod still runs refinements): only compare digits.
          .refine((c) => !/^\d+$/.test(c) || BigInt(c) < 2n ** 256n, "coin types are uint256 (below 2^256)"),
      )
      .max(MAX_COIN_TYPES, `at most ${MAX_COIN_TYPES} coin types`),
  )
  .transform((v) => [...new Set(v.map((c) => BigInt(c)))]);

const textKeys = z
  .array(z.string())
  .optional()
  // `texts=` alone asks for none; an empty key inside a list (`a,,b`) is an error.
  .transform((values) => (values ?? []).filter((v) => v !== "").flatMap((v) => v.split(",")))
  .pipe(
    z
      .array(
        z
          .string()
          .min(1, "text keys must not be empty")
          .max(MAX_TEXT_KEY_LENGTH, `text keys are at most ${MAX_TEXT_KEY_LENGTH} characters`),
      )
      .max(MAX_TEXT_KEYS, `at most ${MAX_TEXT_KEYS} text keys`),
  )
  .transform((v) => [...new Set(v)]);

const flag = (name: string, fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === "") return fallback;
      if (v === "true") return true;
      if (v === "false") return false;
      ctx.addIssue({ code: "custom", message: `${name} must be true or false` });
      return z.NEVER;
    });

/** A name to resolve: normalized, or with encoded `[labelhash]` labels as /subgraph shows them (lib/name-input.ts). */
export const nameParam = z.string().superRefine((name, ctx) => {
  const problem = nameInputProblem(name);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

export const addressParam = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "address must be 0x followed by 40 hex digits")
  .transform((a) => a.toLowerCase() as Address);

/** A chain id among the chains this instance indexes. */
export function chainIdParam(indexedChainIds: readonly number[]) {
  return z
    .string()
    .regex(/^\d{1,15}$/, "chain id must be a non-negative integer")
    .transform(Number)
    .refine((id) => indexedChainIds.includes(id), {
      message: `chain id must be one of the indexed chains: ${indexedChainIds.join(", ")}`,
    });
}

export const MAX_INTERFACE_IDS = 20;

/** An ENSIP-4 content-type mask (1 JSON, 2 zlib-compressed JSON, 4 CBOR, 8 URI; several bits: the first set). */
export const abiMaskParam = z
  .string()
  .regex(/^\d{1,78}$/, "abi must be a content-type mask: a positive integer (1 JSON, 2 zlib JSON, 4 CBOR, 8 URI)")
  .refine(
    (m) => !/^\d+$/.test(m) || (BigInt(m) > 0n && BigInt(m) < ABI_MASK_LIMIT),
    "abi must be a content-type mask between 1 and 2^255 - 1",
  )
  .transform((m) => BigInt(m));

/** ERC-165 interface ids (`0x` + 8 hex), lowercased and deduplicated. */
const interfaceIds = list
  .pipe(
    z
      .array(z.string().regex(/^0x[0-9a-fA-F]{8}$/, "each interface id must be 0x followed by 8 hex digits (ERC-165)"))
      .max(MAX_INTERFACE_IDS, `at most ${MAX_INTERFACE_IDS} interface ids`),
  )
  .transform((v) => [...new Set(v.map((id) => id.toLowerCase() as Hex))]);

export const recordsQuery = z.object({
  addresses: coinTypes,
  texts: textKeys,
  name: flag("name", false),
  contenthash: flag("contenthash", false),
  pubkey: flag("pubkey", false),
  abi: abiMaskParam.optional(),
  interfaces: interfaceIds,
  dnszonehash: flag("dnszonehash", false),
  version: flag("version", false),
  accelerate: flag("accelerate", true),
  trace: flag("trace", false),
});
export type RecordsQuery = z.infer<typeof recordsQuery>;

export const primaryNameQuery = z.object({ accelerate: flag("accelerate", true), trace: flag("trace", false) });

export function primaryNamesQuery(indexedChainIds: readonly number[]) {
  return z.object({
    chainIds: list
      .pipe(z.array(chainIdParam(indexedChainIds)).max(MAX_CHAIN_IDS, `at most ${MAX_CHAIN_IDS} chain ids`))
      .transform((ids) => (ids.length === 0 ? [...indexedChainIds] : [...new Set(ids)])),
    accelerate: flag("accelerate", true),
    trace: flag("trace", false),
  });
}

/** Hono's `c.req.queries()` gives arrays; single-valued flags take their last value. */
export function queryInput(all: Record<string, string[]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(all))
    out[k] = k === "addresses" || k === "texts" || k === "chainIds" || k === "interfaces" ? v : v[v.length - 1];
  return out;
}
