import { decodeContenthash, encodeAddress } from "../../shared/resolution/encodings";
import type { RecordsAnswer } from "../../shared/resolution/records";

/*
 * The interpreted profile of a name, from its raw records: links made into https URLs, social handles without their
 * decorations, non-EVM and Rootstock addresses in their chains' text forms, the contenthash decoded. Only what can be derived from
 * the records themselves: no NFT metadata reads (an `eip155:` avatar has no httpUrl here). A record whose bytes do
 * not decode answers null; `records.addresses` and `records.contenthash` still have the bytes.
 */

const BASE_COIN_TYPE = 0x80000000n | 8453n;
const ROOTSTOCK_COIN_TYPE = 137n;
/** The non-EVM chains of `ProfileAddresses`, by their SLIP-44 coin types. */
const NON_EVM_COIN_TYPES = {
  bitcoin: 0n,
  litecoin: 2n,
  dogecoin: 3n,
  monacoin: 22n,
  ripple: 144n,
  bitcoincash: 145n,
  solana: 501n,
  binance: 714n,
} as const;
export const PROFILE_COIN_TYPES = [60n, BASE_COIN_TYPE, ROOTSTOCK_COIN_TYPE, ...Object.values(NON_EVM_COIN_TYPES)];
const SOCIALS = {
  twitter: "com.twitter",
  github: "com.github",
  telegram: "org.telegram",
  linkedin: "com.linkedin",
  keybase: "io.keybase",
} as const;
export const PROFILE_TEXT_KEYS = ["description", "avatar", "header", "url", "email", ...Object.values(SOCIALS)];

const SOCIAL_URLS: Record<keyof typeof SOCIALS, (handle: string) => string> = {
  twitter: (h) => `https://x.com/${h}`,
  github: (h) => `https://github.com/${h}`,
  telegram: (h) => `https://t.me/${h}`,
  linkedin: (h) => `https://www.linkedin.com/in/${h}`,
  keybase: (h) => `https://keybase.io/${h}`,
};

/** An https (or http) URL as it is; `ipfs://` and `ar://` through public gateways; anything else has none. */
export function httpUrlOf(value: string | null | undefined): string | null {
  if (!value) return null;
  const v = value.trim();
  if (/^https?:\/\/\S+$/i.test(v)) return v;
  const ipfs = /^ipfs:\/\/(?:ipfs\/)?(\S+)$/i.exec(v);
  if (ipfs) return `https://ipfs.io/ipfs/${ipfs[1]}`;
  const ar = /^ar:\/\/(\S+)$/i.exec(v);
  if (ar) return `https://arweave.net/${ar[1]}`;
  return null;
}

/** `@name`, `name`, or a profile URL → `name`; null when nothing handle-like is left. */
export function handleOf(value: string | null | undefined): string | null {
  if (!value) return null;
  let v = value.trim();
  const url = /^https?:\/\/[^/]+\/(?:in\/)?([^/?#]+)/i.exec(v);
  if (url) v = url[1]!;
  v = v.replace(/^@/, "");
  return /^[A-Za-z0-9_.-]{1,100}$/.test(v) ? v : null;
}

const evm = (hex: string | null | undefined) => (hex && /^0x[0-9a-f]{40}$/.test(hex) ? hex : null);

export function profileOf(answer: RecordsAnswer) {
  const text = (k: string) => answer.texts?.[k] ?? null;
  const address = (c: bigint) => answer.addresses?.[c.toString()] ?? null;
  const url = (k: string) => {
    const value = text(k);
    return value === null ? null : { httpUrl: httpUrlOf(value) };
  };
  const socials = Object.fromEntries(
    Object.entries(SOCIALS).map(([name, key]) => {
      const handle = handleOf(text(key));
      return [name, handle ? { handle, httpUrl: SOCIAL_URLS[name as keyof typeof SOCIALS](handle) } : null];
    }),
  );
  const email = text("email");
  return {
    description: text("description"),
    avatar: url("avatar"),
    header: url("header"),
    website: url("url"),
    email: email && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? email : null,
    socials,
    addresses: {
      ethereum: evm(address(60n)),
      base: evm(address(BASE_COIN_TYPE)),
      // Rootstock's own text form is mixed case by EIP-1191 (chain id 30 in the hash), not ethereum's EIP-55.
      rootstock: encodeAddress(ROOTSTOCK_COIN_TYPE, evm(address(ROOTSTOCK_COIN_TYPE))),
      ...Object.fromEntries(
        Object.entries(NON_EVM_COIN_TYPES).map(([chain, c]) => [chain, encodeAddress(c, address(c))]),
      ),
    },
    contenthash: decodeContenthash(answer.contenthash),
  };
}
