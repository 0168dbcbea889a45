import { getCoderByCoinType } from "@ensdomains/address-encoder";
import { base58UncheckedEncode } from "@ensdomains/address-encoder/utils";
import { decode as decodeContenthash, encode as encodeContenthash } from "@ensdomains/content-hash";
import { type Address, bytesToHex, type Hex, hexToBytes, keccak256, toHex } from "viem";

/*
 * What a real profile holds, written on one ENSv1 and one ENSv2 name: the texts apps read (avatar, description, url,
 * header, email, socials), addresses of EVM chains (ENSIP-11 coin types) and of non-EVM chains in the bytes their
 * chains write (ENSIP-9, produced by ENS's address-encoder from the chain's text form), an IPFS contenthash (ENS's
 * content-hash), a pubkey, an ABI and an ERC-165 interface implementer (ENSIP-8). Values come from the name alone (no
 * random draws), so adding the profile leaves every other step of the scenario as it was.
 */

/** SLIP-44 and ENSIP-11 coin types the profile writes, by the chain a reader knows them as. */
export const PROFILE_COINS = {
  ethereum: 60,
  bitcoin: 0,
  litecoin: 2,
  dogecoin: 3,
  rootstock: 137,
  solana: 501,
  /** ENSIP-11: 0x80000000 | chain id of OP Mainnet (10) and Base (8453). */
  optimism: 0x80000000 + 10,
  base: 0x80000000 + 8453,
} as const;

/** An address record: the bytes on chain and the text form its chain writes (address-encoder's). */
export interface ProfileAddress {
  coinType: number;
  bytes: Hex;
  text: string;
}

/** One full profile as the manifest records it (`scenario.fullProfiles`). */
export interface FullProfileFacts {
  name: string;
  chainId: number;
  version: "ENSv1" | "ENSv2";
  /** The account that wrote it: the name's owner, whose ETH address record it is. */
  account: Address;
  resolver: Address;
  texts: Record<string, string>;
  /** By coin type (decimal string). */
  addresses: Record<string, ProfileAddress>;
  contenthash: { bytes: Hex; uri: string };
  pubkey: { x: Hex; y: Hex };
  abi: { contentType: number; data: Hex };
  /** ERC-165 interface id → implementer. */
  interfaces: Record<string, Address>;
}

export interface ResolverCall {
  functionName: string;
  args: unknown[];
}

/** `n` bytes derived from the name and a purpose, so every value is stable per name. */
function bytesFor(name: string, purpose: string, n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let i = 0, block = 0; i < n; block++) {
    const chunk = hexToBytes(keccak256(toHex(`${name}/${purpose}/${block}`)));
    for (let j = 0; j < chunk.length && i < n; j++) out[i++] = chunk[j]!;
  }
  return out;
}

/** The chain's text form of `payload` (address-encoder), and the bytes that text decodes to: what a wallet writes. */
function nonEvmAddress(coinType: number, payload: Uint8Array): ProfileAddress {
  const coder = getCoderByCoinType(coinType);
  const text = coder.encode(payload);
  return { coinType, bytes: bytesToHex(coder.decode(text)), text };
}

/** Pay-to-witness-public-key-hash output script (`OP_0 <20 bytes>`): a native SegWit address. */
const p2wpkh = (hash: Uint8Array) => new Uint8Array([0x00, 0x14, ...hash]);
/** Pay-to-public-key-hash output script: the legacy address form (Dogecoin's `D…`). */
const p2pkh = (hash: Uint8Array) => new Uint8Array([0x76, 0xa9, 0x14, ...hash, 0x88, 0xac]);

/** The full profile of `name` held by `account` (its ETH and EVM chain addresses are the account). */
export function fullProfileOf(
  name: string,
  chainId: number,
  version: FullProfileFacts["version"],
  account: Address,
  resolver: Address,
): FullProfileFacts {
  const handle = name.split(".")[0]!;
  const evm = (coinType: number): ProfileAddress => ({
    coinType,
    bytes: account.toLowerCase() as Hex,
    text: getCoderByCoinType(coinType).encode(hexToBytes(account)),
  });
  const addresses = [
    evm(PROFILE_COINS.ethereum),
    evm(PROFILE_COINS.base),
    evm(PROFILE_COINS.optimism),
    evm(PROFILE_COINS.rootstock),
    nonEvmAddress(PROFILE_COINS.bitcoin, p2wpkh(bytesFor(name, "bitcoin", 20))),
    nonEvmAddress(PROFILE_COINS.litecoin, p2wpkh(bytesFor(name, "litecoin", 20))),
    nonEvmAddress(PROFILE_COINS.dogecoin, p2pkh(bytesFor(name, "dogecoin", 20))),
    nonEvmAddress(PROFILE_COINS.solana, bytesFor(name, "solana", 32)),
  ];
  // A CIDv0 is the base58 of a sha2-256 multihash (0x12 0x20 + 32 bytes); content-hash encodes it as ENSIP-7 bytes.
  const cid = base58UncheckedEncode(new Uint8Array([0x12, 0x20, ...bytesFor(name, "ipfs", 32)]));
  const contenthash = `0x${encodeContenthash("ipfs", cid)}` as Hex;
  return {
    name,
    chainId,
    version,
    account: account.toLowerCase() as Address,
    resolver: resolver.toLowerCase() as Address,
    texts: {
      description: `The devnet's full profile, on ${name}`,
      avatar: `https://avatars.devnet.example/${handle}.png`,
      header: `https://headers.devnet.example/${handle}.jpg`,
      url: `https://${handle}.devnet.example/`,
      email: `${handle}@devnet.example`,
      "com.twitter": handle,
      "com.github": handle,
      "org.telegram": handle,
    },
    addresses: Object.fromEntries(addresses.map((a) => [String(a.coinType), a])),
    // content-hash writes a CIDv1; its decoding (base32) is the URI readers show.
    contenthash: { bytes: contenthash, uri: `ipfs://${decodeContenthash(contenthash)}` },
    pubkey: { x: bytesToHex(bytesFor(name, "pubkey-x", 32)), y: bytesToHex(bytesFor(name, "pubkey-y", 32)) },
    abi: { contentType: 1, data: toHex(JSON.stringify([{ type: "function", name: "profile", inputs: [] }])) },
    interfaces: { "0x01ffc9a7": account.toLowerCase() as Address },
  };
}

/** The resolver writes that set `profile` on `node` (setters every resolver of the devnet shares). */
export function fullProfileCalls(node: Hex, profile: FullProfileFacts): ResolverCall[] {
  return [
    ...Object.entries(profile.texts).map(([key, value]) => ({ functionName: "setText", args: [node, key, value] })),
    ...Object.values(profile.addresses).map((a) => ({
      functionName: "setAddr",
      args: [node, BigInt(a.coinType), a.bytes],
    })),
    { functionName: "setContenthash", args: [node, profile.contenthash.bytes] },
    { functionName: "setPubkey", args: [node, profile.pubkey.x, profile.pubkey.y] },
    { functionName: "setABI", args: [node, BigInt(profile.abi.contentType), profile.abi.data] },
    ...Object.entries(profile.interfaces).map(([id, implementer]) => ({
      functionName: "setInterface",
      args: [node, id, implementer],
    })),
  ];
}
