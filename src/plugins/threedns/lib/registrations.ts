import * as schema from "ponder:schema";
import type { Address, Hex } from "viem";
import { handlerSettings, type IndexedEvent, type IndexingContext } from "../../../lib/ens-handlers/context";
import { type DomainRow, settleSubdomainCounts, upsertAccount } from "../../../lib/ens-handlers/db";
import { decodeDnsWireName } from "../../../lib/dns-wire";
import { domainId, resolverId as makeResolverId } from "../../../lib/ids";
import { interpretLabel } from "../../../lib/labels";
import { joinName, makeSubnode, ROOT_NODE, ZERO_ADDRESS } from "../../../lib/names";

/**
 * 3DNS registrations (Optimism and Base) as domains of the shared tables: a registration is the domain of its fqdn
 * (decoded from DNS wire format) under its TLD's domain, which is created, owned by the 3DNS token, when missing.
 * The owner is the registrant (then whoever the token moves to), the expiry the registration's. 3DNS has no
 * registry emitting NewResolver: every registration uses its chain's one 3DNS resolver (what the token's
 * `resolver(node)` answers), so the registration itself links the domain to that resolver; a burn deletes the
 * registration (owner, resolver link and expiry).
 */

export type RegistrationCreatedArgs = {
  node: Hex;
  tld: Hex;
  fqdn: Hex;
  registrant: Address;
  controlBitmap: number;
  expiry: bigint;
};
export type RegistrationExtendedArgs = { node: Hex; duration: bigint; newExpiry: bigint };
export type RegistrationTransferredArgs = { node: Hex; newOwner: Address; operator: Address };
export type RegistrationBurnedArgs = { node: Hex; burner: Address };

/** `resolver` is the chain's 3DNS resolver (undefined when the namespace has none: then no link is made). */
export function makeThreeDNSHandlers({ resolver }: { resolver: Address | undefined }) {
  return {
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
    console.warn(`3DNS RegistrationCreated in tx ${event.transaction.hash}: fqdn ${fqdn} is not a DNS wire-format name; ignored`);
    return;
  }
  // Walk from the TLD down to the registered name, creating what is missing.
  const tokenId = await upsertAccount(context, event.log.address);
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
        ...(isLeaf ? { expiryDate: expiry } : {}),
        ...link,
      });
    } else if (isLeaf) {
      after = await context.db.update(schema.domain, { id }).set({
        ownerId,
        expiryDate: expiry,
        ...link,
        ...(existing.name === null ? { name, labelName } : {}),
      });
    } else {
      after = existing;
    }
    if (existing === null || isLeaf) await settleSubdomainCounts(settings, context, existing, after);
    parentNode = current;
    parentName = after.name;
  }
  if (domainId(parentNode) !== domainId(node)) {
    console.warn(`3DNS RegistrationCreated in tx ${event.transaction.hash}: fqdn hashes to ${parentNode}, not the event's node ${node}`);
  }
}

/** The Resolver entity of `node` on the 3DNS resolver (created if missing) and the domain fields that point at it. */
async function linkResolver(context: IndexingContext, node: Hex, resolver: Address) {
  const id = makeResolverId(handlerSettings(), context.chain.id, resolver, node);
  const existing = await context.db.find(schema.resolver, { id });
  if (!existing) await context.db.insert(schema.resolver).values({ id, domainId: domainId(node), address: resolver.toLowerCase() as Address });
  return { resolverId: id, resolvedAddressId: existing?.addrId ?? null };
}

async function registrationExtended(context: IndexingContext, event: IndexedEvent<RegistrationExtendedArgs>): Promise<void> {
  const id = domainId(event.args.node);
  if (!(await context.db.find(schema.domain, { id }))) return;
  await context.db.update(schema.domain, { id }).set({ expiryDate: event.args.newExpiry });
}

async function setOwner(context: IndexingContext, node: Hex, owner: Address, deleted = false): Promise<void> {
  const settings = handlerSettings();
  const id = domainId(node);
  const before = (await context.db.find(schema.domain, { id })) ?? null;
  if (before === null) return;
  const ownerId = await upsertAccount(context, owner);
  const after = await context.db
    .update(schema.domain, { id })
    .set({ ownerId, ...(deleted ? { resolverId: null, resolvedAddressId: null, expiryDate: null } : {}) });
  await settleSubdomainCounts(settings, context, before, after);
}

async function registrationTransferred(context: IndexingContext, event: IndexedEvent<RegistrationTransferredArgs>): Promise<void> {
  await setOwner(context, event.args.node, event.args.newOwner);
}

// The token deletes a burned registration, resolver and expiry included (`resolver(node)` and `expiry(node)` read
// zero afterwards).
async function registrationBurned(context: IndexingContext, event: IndexedEvent<RegistrationBurnedArgs>): Promise<void> {
  await setOwner(context, event.args.node, ZERO_ADDRESS, true);
}
