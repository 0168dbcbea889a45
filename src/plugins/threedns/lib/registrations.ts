import * as schema from "ponder:schema";
import type { Address, Hex } from "viem";
import type { ThreeDNSTokenAbi } from "../../../../abis";
import { decodeDnsWireName } from "../../../lib/dns-wire";
import { domainId, eventId, resolverId as makeResolverId } from "../../../lib/ids";
import { interpretLabel } from "../../../lib/labels";
import { joinName, makeSubnode, ROOT_NODE, ZERO_ADDRESS } from "../../../lib/names";
import { NO_REGISTRATION_ORDER_KEYS, registrationOrderKeys } from "../../../lib/registration-order";
import {
  type EventArgs,
  handlerSettings,
  type IndexedEvent,
  type IndexingContext,
} from "../../shared/ens-handlers/context";
import { type DomainRow, domainCountState, settleSubdomainCounts, upsertAccount } from "../../shared/ens-handlers/db";
import { makeRegistryHandlers, type NewOwnerArgs } from "../../shared/ens-handlers/registry";
import { effectiveOwner, settleDomainListCounts } from "../../shared/list-counts";

/**
 * 3DNS (Optimism and Base) as domains of the shared tables. The token speaks registry: its NewOwner creates every
 * node (the TLD, owned by the token; the registration; subnames below it, any depth) as a registry's NewOwner does
 * (healed labels, owner, event history), and its Transfer changes a node's owner. A registration is also the domain
 * of its fqdn (decoded from DNS wire format: it names labels the label service could not heal), with the
 * registrant as owner (then whoever the token moves to) and the registration's expiry. 3DNS has no registry emitting
 * NewResolver: registrations and their subnames use the chain's one 3DNS resolver (what the token's
 * `resolver(node)` answers), so NewOwner and the registration link the domain to it; a TLD has none. A burn deletes
 * the registration (owner, resolver link and expiry), a zero-owner NewOwner a subname (owner and resolver link).
 */

export type RegistrationCreatedArgs = EventArgs<typeof ThreeDNSTokenAbi, "RegistrationCreated">;
export type RegistrationExtendedArgs = EventArgs<typeof ThreeDNSTokenAbi, "RegistrationExtended">;
export type RegistrationTransferredArgs = EventArgs<typeof ThreeDNSTokenAbi, "RegistrationTransferred">;
export type RegistrationBurnedArgs = EventArgs<typeof ThreeDNSTokenAbi, "RegistrationBurned">;

/** `resolver` is the chain's 3DNS resolver (undefined when the namespace has none: then no link is made). */
export function makeThreeDNSHandlers({ resolver }: { resolver: Address | undefined }) {
  const registry = makeRegistryHandlers({ registry: "new" });
  return {
    newOwner: async (context: IndexingContext, event: IndexedEvent<NewOwnerArgs>) => {
      await registry.newOwner(context, event);
      const { node: parent, label, owner } = event.args;
      if (!resolver || parent === ROOT_NODE) return;
      const node = makeSubnode(parent, label);
      const link =
        owner.toLowerCase() === ZERO_ADDRESS
          ? { resolverId: null, resolvedAddressId: null }
          : await linkResolver(context, node, resolver);
      const found = (await context.db.find(schema.domain, { id: domainId(node) })) ?? null;
      const before = found === null ? null : domainCountState(found);
      const after = await context.db.update(schema.domain, { id: domainId(node) }).set(link);
      // A deleted subname without its resolver link is empty: it no longer counts under its parent.
      await settleSubdomainCounts(handlerSettings(), context, before, domainCountState(after));
    },
    transfer: registry.transfer,
    registrationCreated: (context: IndexingContext, event: IndexedEvent<RegistrationCreatedArgs>) =>
      registrationCreated(context, event, resolver),
    registrationExtended,
    registrationTransferred,
    registrationBurned,
  };
}

async function registrationCreated(
  context: IndexingContext,
  event: IndexedEvent<RegistrationCreatedArgs>,
  resolver: Address | undefined,
): Promise<void> {
  const settings = handlerSettings();
  const { node, fqdn, registrant, expiry } = event.args;
  const labels = decodeDnsWireName(fqdn);
  if (labels === null || labels.length === 0) {
    console.warn(
      `3DNS RegistrationCreated in tx ${event.transaction.hash}: fqdn ${fqdn} is not a DNS wire-format name; ignored`,
    );
    return;
  }
  // Walk from the TLD down to the registered name, creating what is missing.
  const tokenId = await upsertAccount(context, event.log.address);
  // The registration's event, kept on its domain (3DNS has no registration row): the Omnigraph's `event`.
  const registrationEventId = eventId(settings, context.chain.id, event.block.number, event.log.logIndex);
  let parentNode: Hex = ROOT_NODE;
  let parentName: string | null = settings.isSubgraphCompatible ? null : "";
  for (let i = labels.length - 1; i >= 0; i--) {
    const { text, labelhash } = labels[i]!;
    const current = makeSubnode(parentNode, labelhash);
    const id = domainId(current);
    const isLeaf = i === 0;
    const { label, labelName } = interpretLabel(text, labelhash, settings.labelMode);
    const name = joinName(label, parentName, parentNode === ROOT_NODE);
    const ownerId = isLeaf ? await upsertAccount(context, registrant) : tokenId;
    const existing = (await context.db.find(schema.domain, { id })) ?? null;
    // Read before the write below, which the row `existing` would show.
    const before = existing === null ? null : domainCountState(existing);
    const ownerBefore = existing === null ? null : effectiveOwner(existing);
    const link = isLeaf && resolver ? await linkResolver(context, current, resolver) : {};
    let after: DomainRow;
    if (existing === null) {
      after = await context.db.insert(schema.domain).values({
        id,
        name,
        labelName,
        labelhash,
        parentId: domainId(parentNode),
        createdAt: event.block.timestamp,
        ownerId,
        isMigrated: true,
        ...(isLeaf
          ? { expiryDate: expiry, registrationEventId, ...registrationOrderKeys(event.block.timestamp, expiry) }
          : {}),
        ...link,
      });
    } else {
      // NewOwner created it from a labelhash: the fqdn names a label the label service could not heal.
      const naming =
        existing.name === null || (existing.labelName === null && labelName !== null) ? { name, labelName } : {};
      after = isLeaf
        ? await context.db.update(schema.domain, { id }).set({
            ownerId,
            expiryDate: expiry,
            registrationEventId,
            ...registrationOrderKeys(existing.createdAt, expiry),
            ...link,
            ...naming,
          })
        : Object.keys(naming).length > 0
          ? await context.db.update(schema.domain, { id }).set(naming)
          : existing;
    }
    if (existing === null || isLeaf) await settleSubdomainCounts(settings, context, before, domainCountState(after));
    if (existing === null || isLeaf) await settleDomainListCounts(context, ownerBefore, after);
    parentNode = current;
    parentName = after.name;
  }
  if (domainId(parentNode) !== domainId(node)) {
    console.warn(
      `3DNS RegistrationCreated in tx ${event.transaction.hash}: fqdn hashes to ${parentNode}, not the event's node ${node}`,
    );
  }
}

/** The Resolver entity of `node` on the 3DNS resolver (created if missing) and the domain fields that point at it. */
async function linkResolver(context: IndexingContext, node: Hex, resolver: Address) {
  const id = makeResolverId(handlerSettings(), context.chain.id, resolver, node);
  const existing = await context.db.find(schema.resolver, { id });
  if (!existing)
    await context.db
      .insert(schema.resolver)
      .values({ id, domainId: domainId(node), address: resolver.toLowerCase() as Address });
  return { resolverId: id, resolvedAddressId: existing?.addrId ?? null };
}

async function registrationExtended(
  context: IndexingContext,
  event: IndexedEvent<RegistrationExtendedArgs>,
): Promise<void> {
  const id = domainId(event.args.node);
  if (!(await context.db.find(schema.domain, { id }))) return;
  await context.db
    .update(schema.domain, { id })
    .set({ expiryDate: event.args.newExpiry, registrationExpiryKey: event.args.newExpiry });
}

async function setOwner(context: IndexingContext, node: Hex, owner: Address, deleted = false): Promise<void> {
  const settings = handlerSettings();
  const id = domainId(node);
  const found = (await context.db.find(schema.domain, { id })) ?? null;
  if (found === null) return;
  // Read before the write below, which the row `found` would show.
  const before = domainCountState(found);
  const ownerBefore = effectiveOwner(found);
  const ownerId = await upsertAccount(context, owner);
  const after = await context.db.update(schema.domain, { id }).set({
    ownerId,
    ...(deleted
      ? {
          resolverId: null,
          resolvedAddressId: null,
          expiryDate: null,
          registrationEventId: null,
          ...NO_REGISTRATION_ORDER_KEYS,
        }
      : {}),
  });
  await settleSubdomainCounts(settings, context, before, domainCountState(after));
  await settleDomainListCounts(context, ownerBefore, after);
}

async function registrationTransferred(
  context: IndexingContext,
  event: IndexedEvent<RegistrationTransferredArgs>,
): Promise<void> {
  await setOwner(context, event.args.node, event.args.newOwner);
}

// The token deletes a burned registration, resolver and expiry included (`resolver(node)` and `expiry(node)` read
// zero afterwards).
async function registrationBurned(
  context: IndexingContext,
  event: IndexedEvent<RegistrationBurnedArgs>,
): Promise<void> {
  await setOwner(context, event.args.node, ZERO_ADDRESS, true);
}
