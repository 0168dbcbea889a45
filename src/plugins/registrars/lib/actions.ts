import * as schema from "ponder:schema";
import type { Hex } from "viem";
import type { BaseRegistrarAbi } from "../../../../abis";
import { eventId } from "../../../lib/ids";
import { labelhashOf } from "../../../lib/labels";
import { makeSubnode, tokenIdToHex32 } from "../../../lib/names";
import type { IndexedEvent, IndexingContext } from "../../shared/ens-handlers/context";
import { type EventArgs, handlerSettings } from "../../shared/ens-handlers/context";
import { mergeControllerEvent, type Pricing, type Referral } from "../../shared/registrar-pricing";
import type { SubregistryRef } from "./subregistries";

/*
 * Logical registrar actions. The base registrar's NameRegistered/NameRenewed creates the action (and registers it
 * under `<chainId>-<txHash>-<node>`); the controller events of the same name later in the same transaction find it
 * there and merge their price, referral and event id into it.
 */

// The subgraph tables' event ids, so an action's eventIds name the NameRegistered/NameRenewed rows of /subgraph.
const idOf = (context: IndexingContext, event: IndexedEvent<unknown>) =>
  eventId(handlerSettings(), context.chain.id, event.block.number, event.log.logIndex);

export function actionLinkId(chainId: number, transactionHash: Hex, node: Hex): string {
  return `${chainId}-${transactionHash.toLowerCase()}-${node.toLowerCase()}`;
}

async function insertAction(
  context: IndexingContext,
  sub: SubregistryRef,
  event: IndexedEvent<unknown>,
  action: { type: "registration" | "renewal"; node: Hex; incrementalDuration: bigint },
): Promise<void> {
  const id = idOf(context, event);
  await context.db.insert(schema.registrarAction).values({
    id,
    ...action,
    parentNode: sub.node,
    subregistryId: sub.id,
    chainId: context.chain.id,
    // Who executed the action (ENSNode's `registrant`); the ERC-721 owner may be the NameWrapper.
    registrant: event.transaction.from.toLowerCase() as Hex,
    blockNumber: event.block.number,
    blockTimestamp: event.block.timestamp,
    logIndex: event.log.logIndex,
    transactionHash: event.transaction.hash,
    eventIds: [id],
  });
  await context.db
    .insert(schema.registrarActionLink)
    .values({ id: actionLinkId(context.chain.id, event.transaction.hash, action.node), actionId: id })
    .onConflictDoUpdate({ actionId: id });
}

/** Base registrar `NameRegistered` (and Basenames' `NameRegisteredWithRecord`): a new lifecycle or a re-registration. */
export async function nameRegistered(
  context: IndexingContext,
  sub: SubregistryRef,
  event: IndexedEvent<EventArgs<typeof BaseRegistrarAbi, "NameRenewed">>,
): Promise<void> {
  const labelhash = tokenIdToHex32(event.args.id);
  const node = makeSubnode(sub.node, labelhash);
  await context.db
    .insert(schema.subregistry)
    .values({ id: sub.id, chainId: sub.chainId, address: sub.address, node: sub.node })
    .onConflictDoNothing();
  await context.db
    .insert(schema.registrationLifecycle)
    .values({ id: node, subregistryId: sub.id, parentNode: sub.node, labelhash, expiresAt: event.args.expires })
    .onConflictDoUpdate({ expiresAt: event.args.expires });
  await insertAction(context, sub, event, {
    type: "registration",
    node,
    incrementalDuration: event.args.expires - event.block.timestamp,
  });
}

/** Base registrar `NameRenewed`: the lifecycle's expiry moves, and the action records by how much. */
export async function nameRenewed(
  context: IndexingContext,
  sub: SubregistryRef,
  event: IndexedEvent<EventArgs<typeof BaseRegistrarAbi, "NameRenewed">>,
): Promise<void> {
  const labelhash = tokenIdToHex32(event.args.id);
  const node = makeSubnode(sub.node, labelhash);
  const lifecycle = await context.db.find(schema.registrationLifecycle, { id: node });
  if (!lifecycle) {
    throw new Error(
      `registrars: NameRenewed of ${node} (labelhash ${labelhash}) under ${sub.managedName} in tx ${event.transaction.hash} on chain ${context.chain.id}, but no registration of it was indexed`,
    );
  }
  // Read before the update: the store may hand back the cached row, which the update changes in place.
  const previousExpiry = lifecycle.expiresAt;
  await context.db.update(schema.registrationLifecycle, { id: node }).set({ expiresAt: event.args.expires });
  await insertAction(context, sub, event, {
    type: "renewal",
    node,
    incrementalDuration: event.args.expires - previousExpiry,
  });
}

export interface ControllerEvent {
  /** e.g. `UnwrappedEthRegistrarController:NameRegistered`, for error messages. */
  source: string;
  labelhash: Hex;
  /** The plaintext label the controller published. */
  label: string;
  pricing: Pricing | null;
  referral: Referral | null;
}

/**
 * A controller event merges into the base registrar's action for the same name in the same transaction. Finding
 * none is an invariant failure (a controller never registers or renews without the registrar), so it stops indexing.
 */
export async function controllerEvent(
  context: IndexingContext,
  sub: SubregistryRef,
  event: IndexedEvent<unknown>,
  c: ControllerEvent,
): Promise<void> {
  const node = makeSubnode(sub.node, c.labelhash);
  const name = `${c.label}.${sub.managedName}`;
  const link = await context.db.find(schema.registrarActionLink, {
    id: actionLinkId(context.chain.id, event.transaction.hash, node),
  });
  if (!link) {
    throw new Error(
      `registrars: ${c.source} for "${name}" (node ${node}) in tx ${event.transaction.hash} on chain ${context.chain.id} has no base registrar registration or renewal of that name earlier in the transaction`,
    );
  }
  // The link is written with its action (insertAction): the action is there to merge into, no read needed first.
  await context.db
    .update(schema.registrarAction, { id: link.actionId })
    .set((action) =>
      mergeControllerEvent(action, { id: idOf(context, event), pricing: c.pricing, referral: c.referral }),
    );

  // Keep the label only when it really hashes to the registered labelhash (a controller could emit anything), and
  // never one with a NUL byte, which PostgreSQL text cannot hold.
  if (!c.label.includes("\0") && labelhashOf(c.label) === c.labelhash.toLowerCase()) {
    await context.db.update(schema.registrationLifecycle, { id: node }).set({ label: c.label });
  }
}
