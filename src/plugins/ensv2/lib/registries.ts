import * as schema from "ponder:schema";
import type { Address } from "viem";
import { registryId } from "../../../lib/ensv2-ids";
import { ensv2Anchors, type IndexingContext } from "./context";

export type RegistryRow = typeof schema.ensv2Registry.$inferSelect;

/** The registry row of `address`, created on its first event or link (the root's name is "", anyone else's unknown). */
export async function ensureRegistry(context: IndexingContext, address: Address, block: bigint): Promise<RegistryRow> {
  const id = registryId(context.chain.id, address);
  const existing = await context.db.find(schema.ensv2Registry, { id });
  if (existing) return existing;
  const isRoot = address.toLowerCase() === ensv2Anchors().rootRegistry;
  return context.db.insert(schema.ensv2Registry).values({
    id,
    chainId: context.chain.id,
    address: address.toLowerCase() as Address,
    isRoot,
    canonicalName: isRoot ? "" : null,
    createdAt: block,
  });
}

/** The registry row of `address` if it ever emitted a registry event or was linked; else undefined (not a registry). */
export function findRegistry(context: IndexingContext, address: Address): Promise<RegistryRow | null> {
  return context.db.find(schema.ensv2Registry, { id: registryId(context.chain.id, address) });
}
