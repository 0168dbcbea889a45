import * as schema from "ponder:schema";
import type { Address, Hex } from "viem";
import { domainIdOf, hex32, storageIdOf, versionOf } from "../../../lib/ensv2-ids";
import { encodeLabelhash, interpretLabel, labelhashOf } from "../../../lib/labels";
import { namehash } from "../../../lib/names";
import { handlerSettings } from "../../shared/ens-handlers/context";
import { bumpListCount, settleV2OwnerCount } from "../../shared/list-counts";
import type { IndexingContext } from "./context";
import type { RegistryRow } from "./registries";
import { joinLabel } from "./tree";

export type DomainRow = typeof schema.ensv2Domain.$inferSelect;

/** The label as names spell it: the plaintext when known and normalized, else `[labelhash]`. */
export const labelInName = (domain: Pick<DomainRow, "label" | "labelhash">): string =>
  domain.label ?? encodeLabelhash(domain.labelhash);

/**
 * The label to store for `labelhash`: the event's own label when it hashes to it (a registry at any address may
 * emit anything), else what healing finds; null when neither gives a normalized label.
 */
async function verifiedLabel(labelhash: Hex, literal: string | undefined): Promise<string | null> {
  const settings = handlerSettings();
  const known =
    literal !== undefined && labelhashOf(literal) === labelhash.toLowerCase()
      ? literal
      : await settings.heal(labelhash);
  return interpretLabel(known, labelhash, "normalized").labelName;
}

/** The name columns: the canonical name and its namehash. */
export const naming = (name: string | null): { name: string | null; node: Hex | null } => ({
  name,
  node: name === null ? null : namehash(name),
});

export function findDomain(context: IndexingContext, registry: Address, anyId: bigint): Promise<DomainRow | null> {
  return context.db.find(schema.ensv2Domain, { id: domainIdOf(context.chain.id, registry, anyId) });
}

/**
 * The domain of `tokenId` in `registry`, created (named under the registry's canonical name, and put at the head of
 * the registry's list of domains) when the registry first registers or reserves its label.
 */
export async function ensureDomain(
  context: IndexingContext,
  registry: RegistryRow,
  tokenId: bigint,
  labelhash: Hex,
  literal: string | undefined,
  block: bigint,
): Promise<DomainRow> {
  const id = domainIdOf(context.chain.id, registry.address, tokenId);
  const existing = await context.db.find(schema.ensv2Domain, { id });
  if (existing) return existing;
  const label = await verifiedLabel(labelhash, literal);
  const domain = await context.db.insert(schema.ensv2Domain).values({
    id,
    chainId: context.chain.id,
    registryId: registry.id,
    registry: registry.address,
    storageId: hex32(storageIdOf(tokenId)),
    tokenId: hex32(tokenId),
    tokenVersion: versionOf(tokenId),
    labelhash: labelhash.toLowerCase() as Hex,
    label,
    ...naming(joinLabel(labelInName({ label, labelhash }), registry.canonicalName)),
    expiry: 0n,
    status: "unregistered",
    nextInRegistry: registry.firstDomainId,
    createdAt: block,
    updatedAt: block,
  });
  await context.db.update(schema.ensv2Registry, { id: registry.id }).set({ firstDomainId: id });
  await bumpListCount(context, "v2-registry", registry.id, 1);
  return domain;
}

/**
 * Sets columns of a known domain; returns false when the registry has no such domain (nothing registered there). A
 * new expiry is also the expiry order key once the domain has a registration (registrations.ts sets it with one).
 */
export async function updateDomain(
  context: IndexingContext,
  registry: Address,
  anyId: bigint,
  block: bigint,
  values: Partial<Omit<DomainRow, "id">>,
): Promise<boolean> {
  const id = domainIdOf(context.chain.id, registry, anyId);
  const row = await context.db.find(schema.ensv2Domain, { id });
  if (!row) return false;
  // Read before the write: the store's row shows it afterwards.
  const ownerBefore = row.owner;
  const updated = await context.db.update(schema.ensv2Domain, { id }).set({
    ...values,
    ...(values.expiry !== undefined && row.latestRegistrationId !== null
      ? { registrationExpiryKey: values.expiry }
      : {}),
    // Never backwards: a registry's transfers from before it was linked are applied late (transfers.ts).
    updatedAt: block > row.updatedAt ? block : row.updatedAt,
  });
  await settleV2OwnerCount(context, ownerBefore, updated.owner);
  return true;
}
