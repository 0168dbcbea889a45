import * as schema from "ponder:schema";
import { type Address, type Hex, zeroAddress } from "viem";
import type { RegistryAbi, ThreeDNSTokenAbi } from "../../../../abis";
import { makeSubnode, ROOT_NODE } from "../../../lib/names";
import { recordExistsAfterOwnerWrite } from "../../../lib/registry-fallback";
import { registryNodeId } from "../../../lib/resolution-ids";
import { ADDR_REVERSE_NODE, reversedAddress } from "../../../lib/reverse-nodes";
import type { EventArgs, IndexedEvent, IndexingContext } from "../../shared/ens-handlers/context";
import { v1ResolverMaybeChanged } from "../../shared/name-references";
import { isRegistryWithFallback } from "../../shared/root-registries";

/*
 * Node→resolver links as each registry (or the 3DNS token) records them. The registry's own address keys them, so
 * the old and the new ENS registry keep separate records and the resolution API applies the fallback rule
 * (src/lib/registry-fallback.ts).
 */

const orNull = (a: Address): Hex | null => (a.toLowerCase() === zeroAddress ? null : (a.toLowerCase() as Hex));

async function upsert(
  context: IndexingContext,
  registry: Address,
  node: Hex,
  set: { resolver?: Hex | null; recordExists?: boolean },
) {
  let unchanged = false;
  const written = await context.db
    .insert(schema.registryNode)
    .values({
      id: registryNodeId(context.chain.id, registry, node),
      chainId: context.chain.id,
      registry: registry.toLowerCase() as Hex,
      node,
      ...set,
    })
    .onConflictDoUpdate((row) => {
      unchanged =
        (set.resolver === undefined || set.resolver === row.resolver) &&
        (set.recordExists === undefined || set.recordExists === row.recordExists);
      return set;
    });
  // The record is all the name's resolver depends on: a write that leaves it as it was (a transfer between owners)
  // points no name elsewhere.
  if (!unchanged) await v1ResolverMaybeChanged(context, registry, node, written);
}

/** `recordExists(node)` after the registry that emitted `event` wrote `owner` for a node. */
const recordExistsAfter = (context: IndexingContext, event: IndexedEvent<unknown>, owner: Address) =>
  recordExistsAfterOwnerWrite(owner, isRegistryWithFallback(context.chain.id, event.log.address));

/**
 * NewOwner: the registry writes the subnode's record (a zero owner, a burn, keeps the registry with fallback's record
 * and deletes a plain registry's); addr.reverse subnodes map to their address.
 */
export async function newOwner(
  context: IndexingContext,
  event: IndexedEvent<EventArgs<typeof RegistryAbi, "NewOwner">>,
) {
  const { node: parent, label, owner } = event.args;
  const node = makeSubnode(parent, label);
  await upsert(context, event.log.address, node, { recordExists: recordExistsAfter(context, event, owner) });
  if (parent === ADDR_REVERSE_NODE) {
    // The reverse registrar claims keccak(hex(sender)) for the sender, or names another owner: try both.
    const address = reversedAddress(label, [event.transaction.from, owner]);
    if (address) await context.db.insert(schema.reverseNode).values({ id: node, address }).onConflictDoNothing();
  }
}

/** Transfer: as NewOwner, for the node itself. */
export async function transfer(
  context: IndexingContext,
  event: IndexedEvent<EventArgs<typeof RegistryAbi, "Transfer">>,
) {
  await upsert(context, event.log.address, event.args.node, {
    recordExists: recordExistsAfter(context, event, event.args.owner),
  });
}

/** NewResolver: only the node's owner (or its operator) may set it, so the node has a record. */
export async function newResolver(
  context: IndexingContext,
  event: IndexedEvent<EventArgs<typeof RegistryAbi, "NewResolver">>,
) {
  await upsert(context, event.log.address, event.args.node, {
    resolver: orNull(event.args.resolver),
    recordExists: true,
  });
}

/** 3DNS RegistrationCreated: the token answers `resolver(node)` with the 3DNS resolver it registered the name with. */
export function threednsRegistered(resolver: Address) {
  return async (context: IndexingContext, event: IndexedEvent<{ node: Hex }>) =>
    upsert(context, event.log.address, event.args.node, { resolver: orNull(resolver), recordExists: true });
}

/**
 * 3DNS NewOwner: the token's registry record of a subnode. A TLD (below the root) is the token's own and has no
 * resolver; a registration or a subname below one answers `resolver(node)` with the 3DNS resolver, until a zero
 * owner deletes the subname.
 */
export function threednsNewOwner(resolver: Address) {
  return async (context: IndexingContext, event: IndexedEvent<{ node: Hex; label: Hex; owner: Address }>) => {
    const node = makeSubnode(event.args.node, event.args.label);
    const recordExists = event.args.owner.toLowerCase() !== zeroAddress;
    if (event.args.node === ROOT_NODE) return upsert(context, event.log.address, node, { recordExists });
    await upsert(context, event.log.address, node, { resolver: recordExists ? orNull(resolver) : null, recordExists });
  };
}

/** 3DNS RegistrationBurned: the registration, and with it the resolver link, is deleted. */
export async function threednsBurned(
  context: IndexingContext,
  event: IndexedEvent<EventArgs<typeof ThreeDNSTokenAbi, "RegistrationBurned">>,
) {
  await upsert(context, event.log.address, event.args.node, { resolver: null, recordExists: false });
}
