import type { Address, Hex } from "viem";
import { ETH_COIN_TYPE } from "./coin-types";
import { argOf, type DerivationEvent, deriveRowKey, word } from "./row-key-derivations";

/** Ids of the protocol-acceleration tables; addresses and nodes lowercase. */

/** A registry's record of a node: `<chainId>-<registry>-<node>`. */
export function registryNodeId(chainId: number, registry: Address, node: Hex): string {
  return `${chainId}-${registry.toLowerCase()}-${node.toLowerCase()}`;
}

/** One resolver's records for one node: `<chainId>-<resolver>-<node>`. */
export function resolverRecordsId(chainId: number, resolver: Address, node: Hex): string {
  return `${chainId}-${resolver.toLowerCase()}-${node.toLowerCase()}`;
}

/**
 * A keyed record under the records' current version: `<recordsId>-<version>-<key>`. The key comes last, so any
 * text key (dashes included) keeps ids unique.
 */
export function recordKeyId(recordsId: string, version: bigint, key: string): string {
  return `${recordsId}-${version}-${key}`;
}

/** A standalone reverse registrar's name for an address under a coin type: `<address>-<coinType>`. */
export function reverseNameId(address: Address, coinType: bigint): string {
  return `${address.toLowerCase()}-${coinType}`;
}

/**
 * A keyed record's id at version 0, for the row cache's prefetch: the version is the records row's state, which no
 * event carries, but nearly every node's records never see a VersionChanged. A node whose records did is one
 * wasted read and one direct read per write.
 */
function recordAtVersionZero(keyOf: (event: DerivationEvent) => string | undefined) {
  return (event: DerivationEvent) => {
    const node = word(event, "node");
    const resolver = event.event.log?.address;
    const key = keyOf(event);
    if (node === undefined || resolver === undefined || key === undefined) return undefined;
    return recordKeyId(resolverRecordsId(event.chain.id, resolver as Address, node), 0n, key);
  };
}
const stringArg = (name: string) => (event: DerivationEvent) => {
  const value = argOf(event, name);
  return typeof value === "string" ? value : undefined;
};
deriveRowKey(
  "resolver record at version 0 (args.coinType)",
  recordAtVersionZero((event) => {
    const coinType = argOf(event, "coinType");
    return typeof coinType === "bigint" ? coinType.toString() : undefined;
  }),
);
deriveRowKey(
  "resolver record at version 0 (args.a: coin type 60)",
  recordAtVersionZero((event) => (typeof argOf(event, "a") === "string" ? ETH_COIN_TYPE.toString() : undefined)),
);
deriveRowKey("resolver record at version 0 (args.key)", recordAtVersionZero(stringArg("key")));
deriveRowKey(
  "resolver record at version 0 (args.interfaceID)",
  recordAtVersionZero((event) => stringArg("interfaceID")(event)?.toLowerCase()),
);
