import * as schema from "ponder:schema";
import type { Address, Hex } from "viem";
import type { RegistryAbi } from "../../../../abis";
import { domainId, resolverId as makeResolverId } from "../../../lib/ids";
import { interpretLabel, labelhashOf } from "../../../lib/labels";
import { joinName, makeSubnode, namehash, ROOT_NODE, ZERO_ADDRESS } from "../../../lib/names";
import { effectiveOwner, settleDomainListCounts } from "../list-counts";
import { type EventArgs, handlerSettings, type IndexedEvent, type IndexingContext } from "./context";
import {
  type DomainCountState,
  type DomainRow,
  domainCountState,
  eventFields,
  settleSubdomainCounts,
  upsertAccount,
} from "./db";

/**
 * Registry events (ENS's old registry and registry with fallback, and the Basenames/Lineanames registries), with
 * the ENS subgraph's semantics. `registry: "old"` is the pre-2020 ENS registry, whose events no longer count for a
 * node once the new registry has seen it (`isMigrated`); every other registry is "new".
 */
export interface RegistryOptions {
  registry: "old" | "new";
}

export type NewOwnerArgs = EventArgs<typeof RegistryAbi, "NewOwner">;
export type TransferArgs = EventArgs<typeof RegistryAbi, "Transfer">;
export type NewResolverArgs = EventArgs<typeof RegistryAbi, "NewResolver">;
export type NewTTLArgs = EventArgs<typeof RegistryAbi, "NewTTL">;

/**
 * The root domain exists from the start, owned by the zero address and counted as migrated (the subgraph's
 * `createDomain` for ROOT_NODE). Its name is null in compatible mode, "" (the empty name) otherwise. Idempotent,
 * so every plugin's registry may run it at setup.
 */
export async function setupRootDomain(context: IndexingContext): Promise<void> {
  const settings = handlerSettings();
  await upsertAccount(context, ZERO_ADDRESS);
  await context.db
    .insert(schema.domain)
    .values({
      id: ROOT_NODE,
      ownerId: ZERO_ADDRESS,
      createdAt: 0n,
      isMigrated: true,
      name: settings.isSubgraphCompatible ? null : "",
    })
    .onConflictDoNothing();
}

export function makeRegistryHandlers({ registry }: RegistryOptions) {
  const isOld = registry === "old";

  /** A new owner for the subnode `label` of `node`: creates the domain (named, healed) or updates its owner. */
  async function newOwner(context: IndexingContext, event: IndexedEvent<NewOwnerArgs>): Promise<void> {
    const settings = handlerSettings();
    const { node: parentNode, label: labelhash, owner } = event.args;
    settings.noteBlock(context.chain.id, event.block.number);
    const id = domainId(makeSubnode(parentNode, labelhash));
    const parentId = domainId(parentNode);
    const existing = (await context.db.find(schema.domain, { id })) ?? null;
    // Old-registry events stop counting for a node once the new registry has written it.
    if (isOld && existing?.isMigrated) return;
    // Read before the write below, which the row `existing` would show.
    const before = existing === null ? null : domainCountState(existing);
    const ownerBefore = existing === null ? null : effectiveOwner(existing);

    const ownerId = await upsertAccount(context, owner);
    const isMigrated = !isOld;
    let after: DomainRow;
    if (existing === null) {
      const parent = (await context.db.find(schema.domain, { id: parentId })) ?? null;
      const { name, labelName } = await nameFor(labelhash, parentId, parent, undefined, reverseCandidates(event));
      after = await context.db.insert(schema.domain).values({
        id,
        name,
        labelName,
        labelhash,
        parentId,
        createdAt: event.block.timestamp,
        ownerId,
        isMigrated,
      });
      // The subgraph counts a new child at once and uncounts it in saveDomain if it is empty.
      if (settings.isSubgraphCompatible && parent !== null) {
        await context.db
          .update(schema.domain, { id: parentId })
          .set((row) => ({ subdomainCount: row.subdomainCount + 1 }));
      }
    } else {
      // Migration: the new registry starts the node with an empty record (no resolver, ttl 0) and says nothing
      // about it. The subgraph keeps the old registry's resolver and ttl; the default mode matches the chain.
      const clearsRecord = !settings.isSubgraphCompatible && isMigrated && !existing.isMigrated;
      const naming = existing.name === null ? await nameFor(labelhash, parentId, null, context) : {};
      after = await context.db.update(schema.domain, { id }).set({
        ownerId,
        isMigrated,
        ...naming,
        ...(clearsRecord ? { resolverId: null, resolvedAddressId: null, ttl: null } : {}),
      });
    }
    await settleSubdomainCounts(settings, context, before, domainCountState(after));
    await settleDomainListCounts(context, ownerBefore, after);

    await context.db.insert(schema.newOwner).values({
      ...eventFields(settings, context, event),
      domainId: id,
      parentDomainId: parentId,
      ownerId,
    });
  }

  async function transfer(context: IndexingContext, event: IndexedEvent<TransferArgs>): Promise<void> {
    const settings = handlerSettings();
    const id = domainId(event.args.node);
    if (isOld && !(await isOldRegistryEventCounted(context, id, false))) return;
    const ownerId = await upsertAccount(context, event.args.owner);
    let before: DomainCountState | null = null;
    let ownerBefore = "";
    const after = await context.db.update(schema.domain, { id }).set((row) => {
      before = domainCountState(row);
      ownerBefore = effectiveOwner(row);
      return { ownerId };
    });
    await settleSubdomainCounts(settings, context, before, domainCountState(after));
    await settleDomainListCounts(context, ownerBefore, after);

    await context.db
      .insert(schema.transfer)
      .values({ ...eventFields(settings, context, event), domainId: id, ownerId });
  }

  async function newResolver(context: IndexingContext, event: IndexedEvent<NewResolverArgs>): Promise<void> {
    const settings = handlerSettings();
    const { node, resolver: address } = event.args;
    const id = domainId(node);
    // The subgraph lets the old registry set the root's resolver even after migration.
    if (isOld && !(await isOldRegistryEventCounted(context, id, true))) return;

    let resolverId: string | null = null;
    let resolvedAddressId: string | null = null;
    if (address.toLowerCase() !== ZERO_ADDRESS) {
      resolverId = makeResolverId(settings, context.chain.id, address, node);
      const resolver = await context.db.find(schema.resolver, { id: resolverId });
      if (resolver) {
        resolvedAddressId = resolver.addrId;
      } else {
        await context.db
          .insert(schema.resolver)
          .values({ id: resolverId, domainId: id, address: address.toLowerCase() as Address });
      }
    }
    let before: DomainCountState | null = null;
    const after = await context.db.update(schema.domain, { id }).set((row) => {
      before = domainCountState(row);
      return { resolverId, resolvedAddressId };
    });
    await settleSubdomainCounts(settings, context, before, domainCountState(after));

    await context.db.insert(schema.newResolver).values({
      ...eventFields(settings, context, event),
      domainId: id,
      // The subgraph records the zero address as the resolver id of a NewResolver that unsets the resolver.
      resolverId: resolverId ?? ZERO_ADDRESS,
    });
  }

  async function newTTL(context: IndexingContext, event: IndexedEvent<NewTTLArgs>): Promise<void> {
    const settings = handlerSettings();
    const id = domainId(event.args.node);
    if (isOld && !(await isOldRegistryEventCounted(context, id, false))) return;
    await context.db.update(schema.domain, { id }).set({ ttl: event.args.ttl });
    await context.db.insert(schema.newTTL).values({
      ...eventFields(settings, context, event),
      domainId: id,
      ttl: event.args.ttl,
    });
  }

  return { newOwner, transfer, newResolver, newTTL };
}

/** Old-registry Transfer/NewResolver/NewTTL count only for nodes the new registry has not taken over. */
async function isOldRegistryEventCounted(
  context: IndexingContext,
  id: string,
  rootAlwaysCounts: boolean,
): Promise<boolean> {
  if (rootAlwaysCounts && id === ROOT_NODE) return true;
  const domain = await context.db.find(schema.domain, { id });
  if (!domain) throw new Error(`Old registry event for domain ${id}, which the index does not have`);
  return !domain.isMigrated;
}

/**
 * A new domain's name and labelName: the label healed by the label service (the subgraph asked its rainbow table
 * here), encoded when unknown or not showable, joined to the parent's name.
 */
async function nameFor(
  labelhash: Hex,
  parentId: string,
  parent: DomainRow | null,
  context?: IndexingContext,
  reverse: Address[] = [],
): Promise<{ name: string | null; labelName: string | null }> {
  const settings = handlerSettings();
  const parentRow = parent ?? (context ? ((await context.db.find(schema.domain, { id: parentId })) ?? null) : null);
  const literal =
    (parentId === ADDR_REVERSE_NODE && healReverseLabel(labelhash, reverse, settings.isSubgraphCompatible)) ||
    (await settings.heal(labelhash));
  const { label, labelName } = interpretLabel(literal, labelhash, settings.labelMode);
  return { name: joinName(label, parentRow?.name ?? null, parentId === ROOT_NODE), labelName };
}

const ADDR_REVERSE_NODE = domainId(namehash("addr.reverse"));

/** Addresses whose reverse name a NewOwner under addr.reverse may be creating: the new owner and the sender. */
function reverseCandidates(event: IndexedEvent<NewOwnerArgs>): Address[] {
  return event.transaction.from ? [event.args.owner, event.transaction.from] : [event.args.owner];
}

/**
 * An `addr.reverse` label is the lowercase hex of an address, which no rainbow table holds for most addresses.
 * Outside compatible mode (the subgraph only asked its table) a label equal to the owner's or the sender's address
 * is healed from it; the hash check makes the guess safe.
 */
function healReverseLabel(labelhash: Hex, candidates: Address[], isSubgraphCompatible: boolean): string | null {
  if (isSubgraphCompatible) return null;
  for (const address of candidates) {
    const label = address.slice(2).toLowerCase();
    if (labelhashOf(label) === labelhash) return label;
  }
  return null;
}
