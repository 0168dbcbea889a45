import type { Address, Hex } from "viem";

/**
 * Every id format of the subgraph tables (reference notes §2). Compatible mode reproduces the ENS subgraph's ids;
 * the default mode prefixes resolver and event ids with the chain id, because one index then holds several chains
 * whose block numbers and resolver addresses collide.
 */

export interface IdContext {
  isSubgraphCompatible: boolean;
}

/** A Domain's id is its node (namehash), lowercase hex. */
export function domainId(node: Hex): string {
  return node.toLowerCase();
}

/** An Account's id is its lowercase address. */
export function accountId(address: Address): string {
  return address.toLowerCase();
}

/** `<address>-<node>` (compatible) or `<chainId>-<address>-<node>`. */
export function resolverId(ctx: IdContext, chainId: number, address: Address, node: Hex): string {
  const base = `${address.toLowerCase()}-${node.toLowerCase()}`;
  return ctx.isSubgraphCompatible ? base : `${chainId}-${base}`;
}

/**
 * The labelhash for .eth names on the ENS root chain (the subgraph's id, which ensjs relies on); the node for
 * every other registrar, whose labelhashes would collide with .eth's (`foo.base.eth` and `foo.eth`).
 */
export function registrationId(labelhash: Hex, node: Hex, isEthOnRootChain: boolean): string {
  return (isEthOnRootChain ? labelhash : node).toLowerCase();
}

/**
 * `<blockNumber>-<logIndex>` (compatible) or `<chainId>-<blockNumber>-<logIndex>`. `subIndex` distinguishes the
 * transfers of one ERC-1155 TransferBatch (the subgraph appends `-<i>`, and `-0` for a TransferSingle).
 */
export function eventId(
  ctx: IdContext,
  chainId: number,
  blockNumber: bigint | number,
  logIndex: number,
  subIndex?: number,
): string {
  const base = `${blockNumber}-${logIndex}${subIndex === undefined ? "" : `-${subIndex}`}`;
  return ctx.isSubgraphCompatible ? base : `${chainId}-${base}`;
}
