import { type Abi, type Address, encodeFunctionData, type Hex, keccak256, toHex } from "viem";
import type { NameFacts } from "./model";
import type { Random } from "./random";

/** Coin types the scenario writes: Bitcoin (0) and Base's ENSIP-11 coin type. */
export const COIN_BTC = 0n;
export const COIN_BASE = 2147492101n;

interface Call {
  functionName: string;
  args: unknown[];
}

/**
 * Resolver writes for one name: always an ETH address and a text with a value, plus a rotating extra (multicoin,
 * contenthash, name, pubkey, ABI, interface) so every record kind occurs. `variant` picks the extra. Facts record
 * what a read should return afterwards.
 */
export function recordCalls(facts: NameFacts, owner: Address, variant: number, rng: Random): Call[] {
  const node = facts.node;
  const leaf = facts.labels[0];
  const key = ["url", "avatar", "description", "com.twitter"][variant % 4];
  const value = key === "url" ? `https://example.com/${encodeURIComponent(leaf)}` : `${key} of ${facts.name}`;
  const calls: Call[] = [
    { functionName: "setAddr", args: [node, owner] },
    { functionName: "setText", args: [node, key, value] },
  ];
  facts.addr = owner.toLowerCase() as Address;
  facts.texts = { ...(facts.texts ?? {}), [key]: value };
  const seed = keccak256(toHex(`${facts.name}/${variant}/${rng.int(1e9)}`));
  switch (variant % 6) {
    case 0:
      calls.push({ functionName: "setAddr", args: [node, COIN_BTC, `0x0014${seed.slice(2, 42)}`] });
      break;
    case 1:
      // An IPFS CIDv1 contenthash (0xe301 + dag-pb cid prefix + sha256 multihash).
      calls.push({ functionName: "setContenthash", args: [node, `0xe30101701220${seed.slice(2)}`] });
      break;
    case 2:
      calls.push({ functionName: "setAddr", args: [node, COIN_BASE, owner] });
      calls.push({ functionName: "setName", args: [node, facts.name] });
      break;
    case 3:
      calls.push({ functionName: "setPubkey", args: [node, seed, keccak256(seed)] });
      break;
    case 4:
      calls.push({ functionName: "setABI", args: [node, 1n, toHex('[{"type":"function","name":"hello"}]')] });
      break;
    case 5:
      calls.push({ functionName: "setInterface", args: [node, "0x01ffc9a7", owner] });
      break;
  }
  return calls;
}

/**
 * Every record kind at once, after a `clearRecords` (VersionChanged): what one name per resolver gets so that each
 * resolver emits every record event whatever the scenario's size. The clear comes first, so the facts still hold.
 */
export function everyRecordKind(facts: NameFacts, owner: Address, rng: Random): Call[] {
  const calls: Call[] = [{ functionName: "clearRecords", args: [facts.node] }];
  for (let variant = 0; variant < 6; variant++) calls.push(...recordCalls(facts, owner, variant, rng));
  return calls;
}

/** The same writes as one `multicall` transaction's data. */
export function multicallData(abi: Abi, calls: Call[]): Hex {
  const encoded = calls.map((c) => encodeFunctionData({ abi, functionName: c.functionName, args: c.args } as never));
  return encodeFunctionData({ abi, functionName: "multicall", args: [encoded] } as never);
}

/** The same writes as separate calls (for the old resolver without multicall). */
export function separateData(abi: Abi, calls: Call[]): Hex[] {
  return calls.map((c) => encodeFunctionData({ abi, functionName: c.functionName, args: c.args } as never));
}
