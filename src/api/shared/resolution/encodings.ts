import { getCoderByCoinType } from "@ensdomains/address-encoder";
import { decode, getCodec } from "@ensdomains/content-hash";
import { type Hex, hexToBytes } from "viem";

/*
 * A record's bytes in the text form its own world writes: a non-EVM address as its chain writes it (ENSIP-9, through
 * ENS's address-encoder) and a contenthash as its protocol's id and URI (ENSIP-7, through ENS's content-hash). Both
 * libraries throw on bytes they reject; here that is null, so a bad record never fails a request.
 */

/** The address bytes of `coinType` in its chain's text form; null when unset, the coin unknown or the bytes invalid. */
export function encodeAddress(coinType: bigint, raw: string | null | undefined): string | null {
  if (!raw || coinType > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  try {
    return getCoderByCoinType(Number(coinType)).encode(hexToBytes(raw as Hex));
  } catch {
    return null;
  }
}

export type ContenthashProtocol = "ARWEAVE" | "IPFS" | "IPNS" | "ONION" | "ONION3" | "SKYNET" | "SWARM";

export interface DecodedContenthash {
  protocolType: ContenthashProtocol;
  decoded: string;
  uri: string;
  httpUrl: string | null;
}

/** content-hash's codec names → the protocol, its URI scheme and its public gateway (none for onion and skynet). */
const PROTOCOLS: Record<string, { type: ContenthashProtocol; scheme: string; gateway?: (id: string) => string }> = {
  ipfs: { type: "IPFS", scheme: "ipfs", gateway: (id) => `https://ipfs.io/ipfs/${id}` },
  ipns: { type: "IPNS", scheme: "ipns", gateway: (id) => `https://ipfs.io/ipns/${id}` },
  swarm: { type: "SWARM", scheme: "bzz", gateway: (id) => `https://api.gateway.ethswarm.org/bzz/${id}/` },
  arweave: { type: "ARWEAVE", scheme: "ar", gateway: (id) => `https://arweave.net/${id}` },
  onion: { type: "ONION", scheme: "onion" },
  onion3: { type: "ONION3", scheme: "onion3" },
  skynet: { type: "SKYNET", scheme: "sia" },
};

/**
 * The contenthash bytes decoded; null when unset, malformed, or of a codec the schema's protocols do not name (ADNL).
 */
export function decodeContenthash(raw: string | null | undefined): DecodedContenthash | null {
  if (!raw) return null;
  try {
    const codec = getCodec(raw);
    const protocol = codec !== undefined && Object.hasOwn(PROTOCOLS, codec) ? PROTOCOLS[codec] : undefined;
    if (!protocol) return null;
    const decoded = decode(raw);
    if (!decoded) return null;
    return {
      protocolType: protocol.type,
      decoded,
      uri: `${protocol.scheme}://${decoded}`,
      httpUrl: protocol.gateway?.(decoded) ?? null,
    };
  } catch {
    return null;
  }
}
