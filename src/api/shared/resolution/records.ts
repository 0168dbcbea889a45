import type { Address, Hex } from "viem";

// What a resolution is asked for and what it answers: shared by resolve.ts, its backends, its trace and the APIs,
// in a module of its own so that the trace does not import the resolution it describes.

/** ABI() loops over the mask's bits up to the mask itself: from 2^255 on, resolvers' loops never end (out of gas). */
export const ABI_MASK_LIMIT = 2n ** 255n;

export interface RecordsRequest {
  coinTypes: bigint[];
  texts: string[];
  name: boolean;
  /** ENSIP-7 contenthash; absent: not asked for. */
  contenthash?: boolean;
  /** IPubkeyResolver's SECP256k1 key (x, y). */
  pubkey?: boolean;
  /** ENSIP-4 ABI reads, one per content-type mask: each answers the first set ABI among its bits, lowest first. */
  abiMasks?: bigint[];
  /** ENSIP-8 interface implementers, by ERC-165 interface id (0x + 8 lowercase hex). */
  interfaces?: Hex[];
  /** IDNSZoneResolver's zonehash. */
  dnszonehash?: boolean;
  /** IVersionableResolver's record version. */
  version?: boolean;
}

/** An ABI record: its content type (one ENSIP-4 bit, decimal) and data (lowercase hex). */
export interface AbiRecord {
  contentType: string;
  data: Hex;
}

export interface RecordsAnswer {
  name?: string | null;
  /** Coin type (decimal) → address (lowercase hex), null when unset. */
  addresses?: Record<string, string | null>;
  texts?: Record<string, string | null>;
  /** The contenthash bytes (lowercase hex), null when unset. */
  contenthash?: string | null;
  /** The public key, null when unset (both coordinates zero). */
  pubkey?: { x: Hex; y: Hex } | null;
  /** Content-type mask (decimal) → the first set ABI among its bits, null when none is. */
  abis?: Record<string, AbiRecord | null>;
  /** Interface id → its implementer (lowercase), null when none. */
  interfaces?: Record<string, Address | null>;
  /** The zonehash bytes (lowercase hex), null when unset. */
  dnszonehash?: Hex | null;
  /** The record version (decimal), null while 0 (records never cleared) or when the resolver has no versions. */
  version?: string | null;
}

export function emptyAnswer(request: RecordsRequest): RecordsAnswer {
  return {
    ...(request.name ? { name: null } : {}),
    ...(request.coinTypes.length > 0
      ? { addresses: Object.fromEntries(request.coinTypes.map((c) => [c.toString(), null])) }
      : {}),
    ...(request.texts.length > 0 ? { texts: Object.fromEntries(request.texts.map((k) => [k, null])) } : {}),
    ...(request.contenthash ? { contenthash: null } : {}),
    ...(request.pubkey ? { pubkey: null } : {}),
    ...(request.abiMasks?.length
      ? { abis: Object.fromEntries(request.abiMasks.map((m) => [m.toString(), null])) }
      : {}),
    ...(request.interfaces?.length ? { interfaces: Object.fromEntries(request.interfaces.map((i) => [i, null])) } : {}),
    ...(request.dnszonehash ? { dnszonehash: null } : {}),
    ...(request.version ? { version: null } : {}),
  };
}
