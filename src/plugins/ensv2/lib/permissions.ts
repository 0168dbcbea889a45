import * as schema from "ponder:schema";
import type { Address } from "viem";
import { emitter, type IndexedEvent, type IndexingContext } from "./context";
import { logColumns } from "./events";
import { domainIdOf, permissionId, registryId, resourceKey } from "./ids";
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
