import type { Address, Hex } from "viem";

/**
 * Every id format of the subgraph tables (docs/api.md, "/subgraph: entity ids"). The ENS subgraph's own: event ids
 * https://github.com/ensdomains/ens-subgraph/blob/723f1b6abfd4b30a99db0b429a77ebac61ed8b91/src/utils.ts#L5-L10, resolver ids
 * https://github.com/ensdomains/ens-subgraph/blob/723f1b6abfd4b30a99db0b429a77ebac61ed8b91/src/resolver.ts#L258-L263, registration ids
 * (the labelhash) https://github.com/ensdomains/ens-subgraph/blob/723f1b6abfd4b30a99db0b429a77ebac61ed8b91/src/ethRegistrar.ts#L47-L48.
 *
 * Rows of the ENS root chain get exactly the ENS subgraph's ids, in both modes: clients parse them (ensjs builds
 * a Resolver id as `<address>-<node>` and reads a NewResolver's resolver address as `id.split('-')[0]`). Rows of
 * every other chain (Basenames, Lineanames, 3DNS) keep that format and append `-<chainId>`: one index holds several
 * chains whose block numbers and resolver addresses collide, and with the chain id last the same parsing still
 * yields the address (or the block number) first. Compatible mode indexes the root chain only, so its ids are
 * always the subgraph's.
 */

export interface IdContext {
  /** The namespace's ENS root chain (1 on mainnet); undefined when it indexes none, so every row gets a suffix. */
  ensRootChainId: number | undefined;
}

/** `base` on the ENS root chain, `<base>-<chainId>` on any other chain. */
function scopedToChain(ctx: IdContext, chainId: number, base: string): string {
  return chainId === ctx.ensRootChainId ? base : `${base}-${chainId}`;
}

/** A Domain's id is its node (namehash), lowercase hex: a node names one name whichever chain holds it. */
export function domainId(node: Hex): string {
  return node.toLowerCase();
}

/** An Account's id is its lowercase address. */
export function accountId(address: Address): string {
  return address.toLowerCase();
}

/** `<address>-<node>` on the ENS root chain, `<address>-<node>-<chainId>` elsewhere. */
export function resolverId(ctx: IdContext, chainId: number, address: Address, node: Hex): string {
  return scopedToChain(ctx, chainId, `${address.toLowerCase()}-${node.toLowerCase()}`);
}

/**
 * The labelhash for .eth names on the ENS root chain (the subgraph's id, which ensjs relies on); the node for
 * every other registrar, whose labelhashes would collide with .eth's (`foo.base.eth` and `foo.eth`).
 */
export function registrationId(labelhash: Hex, node: Hex, isEthOnRootChain: boolean): string {
  return (isEthOnRootChain ? labelhash : node).toLowerCase();
}

/**
 * `<blockNumber>-<logIndex>` on the ENS root chain, `<blockNumber>-<logIndex>-<chainId>` elsewhere. `subIndex`
 * distinguishes the transfers of one ERC-1155 TransferBatch (the subgraph appends `-<i>`, and `-0` for a
 * TransferSingle), before the chain id: `<block>-<logIndex>-<i>-<chainId>`. Event rows with a `subIndex` always
 * have one, so within a table a root-chain id and another chain's id never have the same number of parts.
 * Registrar actions use the same ids, so an action's `eventIds` name the subgraph's event rows.
 */
export function eventId(
  ctx: IdContext,
  chainId: number,
  blockNumber: bigint | number,
  logIndex: number,
  subIndex?: number,
): string {
  return scopedToChain(ctx, chainId, `${blockNumber}-${logIndex}${subIndex === undefined ? "" : `-${subIndex}`}`);
}
