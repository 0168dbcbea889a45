import * as schema from "ponder:schema";
import type { Address } from "viem";
import { domainIdOf, permissionId, registryId, resourceKey } from "../../../lib/ensv2-ids";
import { emitter, type IndexedEvent, type IndexingContext } from "./context";
import type { DomainRow } from "./domains";
import { logColumns } from "./events";
import { findRegistry } from "./registries";

/** EACRolesChanged's arguments (every EnhancedAccessControl contract: registries, resolvers, the registrar). */
export interface RolesChanged {
  resource: bigint;
  account: Address;
  oldRoleBitmap: bigint;
  newRoleBitmap: bigint;
}

/** Resource 0 is a contract's root; any other resource of a registry is one of its names (its storage id plus a version). */
const ROOT_RESOURCE = 0n;

/** The account's roles on the resource become `newRoleBitmap`; the change joins the history. Returns the domain, if any. */
export async function rolesChanged(
  context: IndexingContext,
  event: IndexedEvent<RolesChanged>,
): Promise<string | null> {
  const { resource, account, oldRoleBitmap, newRoleBitmap } = event.args;
  const contract = emitter(event);
  const isRegistryName = resource !== ROOT_RESOURCE && (await findRegistry(context, contract)) !== null;
  const domainId = isRegistryName ? domainIdOf(context.chain.id, contract, resource) : null;
  const key = { contract, resource: resourceKey(resource), account: account.toLowerCase() as Address };
  const id = permissionId(context.chain.id, contract, resource, account);
  await context.db
    .insert(schema.ensv2Permission)
    .values({
      id,
      chainId: context.chain.id,
      ...key,
      roles: newRoleBitmap,
      domainId,
      updatedAt: event.block.number,
    })
    .onConflictDoUpdate({ roles: newRoleBitmap, updatedAt: event.block.number });
  if (domainId) await noteNamePermission(context, domainId, id);
  await context.db.insert(schema.ensv2PermissionChange).values({
    ...logColumns(context, event),
    ...key,
    oldRoles: oldRoleBitmap,
    newRoles: newRoleBitmap,
    domainId,
    permissionId: id,
    contractId: registryId(context.chain.id, contract),
  });
  return domainId;
}

/** The name keeps the ids of its roles' entries, so that moving its resource can zero them. */
async function noteNamePermission(context: IndexingContext, domainId: string, id: string): Promise<void> {
  const domain = await context.db.find(schema.ensv2Domain, { id: domainId });
  if (!domain || domain.permissionIds.includes(id)) return;
  await context.db.update(schema.ensv2Domain, { id: domainId }).set({ permissionIds: [...domain.permissionIds, id] });
}

/**
 * A re-registration or reservation over a token that still has a holder, and an unregistration of one, move the name
 * to its next EAC resource (contracts-v2 PermissionedRegistry: `eacVersionId` grows), and `roles(anyId, …)` reads only
 * the current resource: the roles granted on the old one read zero from then on, with no EACRolesChanged to say so.
 * Their entries become zero (their history stays in ensv2_permission_change).
 */
export async function retireNamePermissions(context: IndexingContext, domain: DomainRow, block: bigint): Promise<void> {
  if (domain.permissionIds.length === 0) return;
  for (const id of domain.permissionIds) {
    if (await context.db.find(schema.ensv2Permission, { id })) {
      await context.db.update(schema.ensv2Permission, { id }).set({ roles: 0n, updatedAt: block });
    }
  }
  await context.db.update(schema.ensv2Domain, { id: domain.id }).set({ permissionIds: [] });
}
