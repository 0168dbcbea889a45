import * as schema from "ponder:schema";
import { type Address, type Hex, zeroAddress } from "viem";
import { domainIdOf, hex32, tokenRowId, versionOf, withVersion } from "../../../lib/ensv2-ids";
import { settleV2OwnerCount } from "../../shared/list-counts";
import { linkSubregistry } from "./canonical";
import { emitter, type IndexedEvent, type IndexingContext } from "./context";
import { ensureDomain, findDomain, updateDomain } from "./domains";
import { retireNamePermissions } from "./permissions";
import { recordRegistration } from "./registrations";
import { ensureRegistry, findRegistry } from "./registries";

/*
 * What a registry's events do to its domains, in the order PermissionedRegistry emits them (docs/ensv2.md): a
 * (re-)registration or reservation resets the label's subregistry and resolver, which its SubregistryUpdated and
 * ResolverUpdated then set; the ERC-1155 mint, burn or transfer follows LabelRegistered and precedes
 * TokenRegenerated's new id.
 */

const asAddress = (a: Address): Address | null => (a === zeroAddress ? null : (a.toLowerCase() as Address));

export interface LabelArgs {
  tokenId: bigint;
  labelHash: Hex;
  label: string;
  expiry: bigint;
  sender: Address;
  /** LabelRegistered only. */
  owner?: Address;
}

/** LabelRegistered (with an owner) or LabelReserved (without): returns the domain's id. */
export async function labelRegisteredOrReserved(
  context: IndexingContext,
  event: IndexedEvent<LabelArgs>,
): Promise<string> {
  const { tokenId, labelHash, label, expiry, owner } = event.args;
  const block = event.block.number;
  const registry = await ensureRegistry(context, emitter(event), block);
  const domain = await ensureDomain(context, registry, tokenId, labelHash, label, block);
  // Over a token that still had a holder (an expired registration), the registry burnt it (its TransferSingle came
  // first) and moved the token and the resource to their next versions: a token version past the name's says so.
  if (versionOf(tokenId) > domain.tokenVersion) await retireNamePermissions(context, domain, block);
  if (domain.subregistry) await linkSubregistry(context, domain, null, block);
  let ownerBefore: string | null = null;
  const updated = await context.db.update(schema.ensv2Domain, { id: domain.id }).set((row) => {
    ownerBefore = row.owner;
    return {
      tokenId: hex32(tokenId),
      tokenVersion: versionOf(tokenId),
      status: owner === undefined ? "reserved" : "registered",
      owner: owner === undefined ? null : asAddress(owner),
      expiry,
      resolver: null,
      updatedAt: block,
    };
  });
  await settleV2OwnerCount(context, ownerBefore, updated.owner);
  await recordRegistration(context, event, domain);
  return domain.id;
}

/**
 * LabelUnregistered: expired now; a registered token is burnt (its TransferSingle follows) and the label's next
 * token id is one version up, as the registry's `getTokenId` then reads.
 */
export async function labelUnregistered(
  context: IndexingContext,
  event: IndexedEvent<{ tokenId: bigint }>,
): Promise<string | null> {
  const registry = emitter(event);
  const domain = await findDomain(context, registry, event.args.tokenId);
  if (!domain) return null;
  const wasMinted = domain.owner !== null;
  const nextId = wasMinted ? withVersion(event.args.tokenId, versionOf(event.args.tokenId) + 1n) : event.args.tokenId;
  // Burning the token moves the name's resource on: its roles read zero from now on.
  if (wasMinted) await retireNamePermissions(context, domain, event.block.number);
  await updateDomain(context, registry, event.args.tokenId, event.block.number, {
    status: "unregistered",
    expiry: event.block.timestamp,
    tokenId: hex32(nextId),
    tokenVersion: versionOf(nextId),
    // The burn that follows is of the version before `nextId`, which leaves the name alone (tokensTransferred).
    ...(wasMinted ? { owner: null } : {}),
  });
  return domain.id;
}

/** SubregistryUpdated: the label's subregistry (zero: none), moving the registries' canonical names with it. */
export async function subregistryUpdated(
  context: IndexingContext,
  event: IndexedEvent<{ tokenId: bigint; subregistry: Address }>,
): Promise<string | null> {
  const domain = await findDomain(context, emitter(event), event.args.tokenId);
  if (!domain) return null;
  await linkSubregistry(context, domain, asAddress(event.args.subregistry), event.block.number);
  return domain.id;
}

/** A column of the label set from an event (expiry, resolver, token id, resource); returns the domain id if known. */
export async function setOnDomain(
  context: IndexingContext,
  event: IndexedEvent<unknown>,
  anyId: bigint,
  values: Parameters<typeof updateDomain>[4],
): Promise<string | null> {
  const registry = emitter(event);
  return (await updateDomain(context, registry, anyId, event.block.number, values))
    ? domainIdOf(context.chain.id, registry, anyId)
    : null;
}

export const resolverValue = (resolver: Address) => ({ resolver: asAddress(resolver) });
export const tokenIdValues = (tokenId: bigint) => ({ tokenId: hex32(tokenId), tokenVersion: versionOf(tokenId) });

/**
 * An ERC-1155 mint, transfer or burn of a registry token: the holder (null once burnt). Only known registries count;
 * returns the domain ids it moved, or undefined for a contract that is no registry.
 *
 * A transfer of a token older than the name's current one (the burn after LabelUnregistered, or an earlier transfer
 * applied late, transfers.ts) moves that token's row only: the name's holder and token id follow its current token.
 * In the order a registry emits them that equals applying every transfer to the name.
 */
export async function tokensTransferred(
  context: IndexingContext,
  event: IndexedEvent<unknown>,
  transfers: { id: bigint; value: bigint }[],
  to: Address,
): Promise<string[] | undefined> {
  const registry = emitter(event);
  if (!(await findRegistry(context, registry))) return undefined;
  const owner = asAddress(to);
  const moved: string[] = [];
  for (const { id, value } of transfers) {
    // A name token has a supply of one; a zero-value transfer moves nothing.
    if (value === 0n) continue;
    const domain = await findDomain(context, registry, id);
    if (!domain) continue;
    moved.push(domain.id);
    if (versionOf(id) >= domain.tokenVersion) {
      await updateDomain(
        context,
        registry,
        id,
        event.block.number,
        owner ? { owner, ...tokenIdValues(id) } : { owner: null },
      );
    }
    await tokenHeld(context, event, domain.id, id, owner);
  }
  return moved;
}

/** The token's row in ensv2_token: minted to its holder, or burned. */
async function tokenHeld(
  context: IndexingContext,
  event: IndexedEvent<unknown>,
  domainId: string,
  id: bigint,
  owner: Address | null,
): Promise<void> {
  const contract = emitter(event);
  const state = { owner: owner ?? zeroAddress, mintStatus: owner ? ("minted" as const) : ("burned" as const) };
  await context.db
    .insert(schema.ensv2Token)
    .values({
      id: tokenRowId(context.chain.id, contract, id),
      chainId: context.chain.id,
      contract,
      tokenId: hex32(id),
      domainId,
      ...state,
    })
    .onConflictDoUpdate(state);
}
