import * as schema from "ponder:schema";
import type { Address, Hex } from "viem";
import { discardRow } from "../../lib/discard";
import { nameReferenceId, referencedAccount, v1HolderId } from "../../lib/name-references";
import { defersToOld, effectiveResolver } from "../../lib/registry-fallback";
import { registryNodeId, resolverRecordsId } from "../../lib/resolution-ids";
import type { IndexingContext } from "./ens-handlers/context";
import { rootRegistriesOf } from "./root-registries";

/*
 * name_reference: which names' current address records point at which account (Account.nameReferences), kept while
 * indexing so that a page is one index range. A name (a "holder": an ENSv1 node on one chain, or an ENSv2 domain)
 * points at one "source", its current resolver's records for its node; a source keeps its EVM address records under
 * the resolver's current version. Every change on either side rewrites the affected name_reference rows:
 *   - an address record written (addressRecordChanged) or cleared by a version bump (recordsCleared): the source's
 *     holders' rows for that coin type;
 *   - a name's resolver changed (the registries' handlers call v1ResolverMaybeChanged / pointV2Domain): its rows of
 *     the old source go, the new source's addresses are copied.
 */

type Holder = typeof schema.nameReferenceHolder.$inferSelect;
type RegistryNode = typeof schema.registryNode.$inferSelect;

async function writeReference(context: IndexingContext, holder: Holder, coinType: string, address: string | null) {
  const id = nameReferenceId(holder.id, coinType);
  if (address === null || holder.resolver === null) {
    await discardRow(context.db, schema.nameReference, { id });
    return;
  }
  const values = {
    address: address as Hex,
    coinType: BigInt(coinType),
    holderId: holder.id,
    version: holder.version,
    domainId: holder.domainId,
    chainId: holder.chainId,
    resolver: holder.resolver,
  };
  await context.db
    .insert(schema.nameReference)
    .values({ id, ...values })
    .onConflictDoUpdate(values);
}

/** An address record written on a resolver (`sourceId`: its resolver_records id) under its current version. */
export async function addressRecordChanged(context: IndexingContext, sourceId: string, coinType: bigint, value: Hex) {
  const account = referencedAccount(coinType, value);
  const key = coinType.toString();
  const source = await context.db.find(schema.nameReferenceSource, { id: sourceId });
  if ((source?.addresses[key] ?? null) === account) return;
  // A source seen for the first time has no holders yet: its row is all there is to write (and `account` is set: an
  // unset one equalled the missing source's and returned above).
  if (!source) {
    await context.db
      .insert(schema.nameReferenceSource)
      .values({ id: sourceId, addresses: { [key]: account! }, holders: [] });
    return;
  }
  const addresses = { ...source.addresses };
  if (account === null) delete addresses[key];
  else addresses[key] = account;
  await context.db.update(schema.nameReferenceSource, { id: sourceId }).set({ addresses });
  for (const holderId of source.holders) {
    const holder = await context.db.find(schema.nameReferenceHolder, { id: holderId });
    if (holder) await writeReference(context, holder, key, account);
  }
}

/** A version bump (clearRecords): every address record of the source is gone, and with it its holders' references. */
export async function recordsCleared(context: IndexingContext, sourceId: string) {
  const source = await context.db.find(schema.nameReferenceSource, { id: sourceId });
  if (!source || Object.keys(source.addresses).length === 0) return;
  await context.db.update(schema.nameReferenceSource, { id: sourceId }).set({ addresses: {} });
  for (const holderId of source.holders) {
    const holder = await context.db.find(schema.nameReferenceHolder, { id: holderId });
    if (holder)
      for (const coinType of Object.keys(source.addresses)) await writeReference(context, holder, coinType, null);
  }
}

/** Points a name at its current resolver's records for `node` (`resolver` null: none), rewriting its references. */
async function pointHolder(
  context: IndexingContext,
  identity: Pick<Holder, "id" | "version" | "domainId" | "chainId">,
  resolver: Address | null,
  node: Hex | null,
) {
  const sourceId = resolver && node ? resolverRecordsId(identity.chainId, resolver, node) : null;
  const previous = await context.db.find(schema.nameReferenceHolder, { id: identity.id });
  if ((previous?.sourceId ?? null) === sourceId) return;
  if (previous?.sourceId) {
    const old = await context.db.find(schema.nameReferenceSource, { id: previous.sourceId });
    if (old) {
      await context.db
        .update(schema.nameReferenceSource, { id: old.id })
        .set({ holders: old.holders.filter((h) => h !== identity.id) });
      for (const coinType of Object.keys(old.addresses)) await writeReference(context, previous, coinType, null);
    }
  }
  const holder: Holder = { ...identity, resolver: sourceId ? (resolver!.toLowerCase() as Hex) : null, sourceId };
  if (previous) await context.db.update(schema.nameReferenceHolder, { id: identity.id }).set(holder);
  else await context.db.insert(schema.nameReferenceHolder).values(holder);
  if (!sourceId) return;
  const source = await context.db.find(schema.nameReferenceSource, { id: sourceId });
  if (!source) {
    // A source no address record has reached yet: nothing to copy.
    await context.db.insert(schema.nameReferenceSource).values({ id: sourceId, addresses: {}, holders: [identity.id] });
    return;
  }
  await context.db
    .update(schema.nameReferenceSource, { id: sourceId })
    .set({ holders: [...source.holders, identity.id] });
  for (const [coinType, account] of Object.entries(source.addresses)) {
    await writeReference(context, holder, coinType, account);
  }
}

/**
 * A registry's record of `node` changed (its resolver or whether the record exists): re-point the ENSv1 name at the
 * resolver the registry answers for it, by the registry-with-fallback rule on the ENS root chain. `written`: that
 * record as its writer just left it, so it need not be read again.
 */
export async function v1ResolverMaybeChanged(
  context: IndexingContext,
  registry: Address,
  node: Hex,
  written: RegistryNode,
) {
  const chainId = context.chain.id;
  const root = rootRegistriesOf();
  const r = registry.toLowerCase() as Address;
  const isRootPair = root !== null && root.chainId === chainId && (r === root.current || r === root.old);
  const recordOf = async (a: Address) =>
    a === r ? written : context.db.find(schema.registryNode, { id: registryNodeId(chainId, a, node) });
  let resolver: Address | null;
  if (isRootPair) {
    const current = (await recordOf(root.current)) ?? undefined;
    // The old registry's record matters only while the current one has none: one read fewer on the hot path.
    const old = root.old && defersToOld(node, current) ? ((await recordOf(root.old)) ?? undefined) : undefined;
    resolver = effectiveResolver(node, current, old, root.old !== undefined);
  } else {
    resolver = ((await recordOf(r))?.resolver ?? null) as Address | null;
  }
  const id = v1HolderId(chainId, node);
  await pointHolder(context, { id, version: "ENSv1", domainId: node.toLowerCase(), chainId }, resolver, node);
}

/** An ENSv2 domain's resolver or canonical node may have changed: re-point it at (resolver, node). */
export async function pointV2Domain(context: IndexingContext, domainId: string | null) {
  if (!domainId) return;
  const domain = await context.db.find(schema.ensv2Domain, { id: domainId });
  if (!domain) return;
  await pointHolder(
    context,
    { id: domain.id, version: "ENSv2", domainId: domain.id, chainId: domain.chainId },
    domain.resolver,
    domain.node,
  );
}
