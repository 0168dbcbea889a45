import * as schema from "ponder:schema";
import type { Address, Hex } from "viem";
import type { ResolverAbi } from "../../../../abis";
import { textOfDnsTxtRecord } from "../../../lib/dns-wire";
import { domainId, resolverId as makeResolverId } from "../../../lib/ids";
import { type EventArgs, handlerSettings, type IndexedEvent, type IndexingContext } from "./context";
import { eventFields, upsertAccount } from "./db";

/**
 * Resolver events from any address, with the ENS subgraph's semantics (its resolver.ts). A Resolver entity is
 * `<address>-<node>` (`-<chainId>` appended off the ENS root chain) and exists once any record event or NewResolver
 * saw it.
 */

type NodeArgs = { node: Hex };

// PostgreSQL text cannot hold NUL; text keys and values keep every other character.
const withoutNul = (s: string) => (s.includes("\0") ? s.replaceAll("\0", "") : s);

function idOf(context: IndexingContext, event: IndexedEvent<NodeArgs>): string {
  return makeResolverId(handlerSettings(), context.chain.id, event.log.address, event.args.node);
}

/**
 * Creates the Resolver if missing and applies `changes` (a function of the current row for list fields). One
 * store call (an upsert) rather than a find and then an insert or update.
 */
async function upsertResolver(
  context: IndexingContext,
  event: IndexedEvent<NodeArgs>,
  changes: (row: typeof schema.resolver.$inferSelect | null) => Partial<typeof schema.resolver.$inferInsert>,
) {
  return context.db
    .insert(schema.resolver)
    .values({
      id: idOf(context, event),
      domainId: domainId(event.args.node),
      address: event.log.address.toLowerCase() as Address,
      ...changes(null),
    })
    .onConflictDoUpdate((row) => changes(row));
}

export async function addrChanged(
  context: IndexingContext,
  event: IndexedEvent<EventArgs<typeof ResolverAbi, "AddrChanged">>,
) {
  const settings = handlerSettings();
  const addrId = await upsertAccount(context, event.args.a);
  const resolver = await upsertResolver(context, event, () => ({ addrId }));
  // The domain's resolvedAddress follows its current resolver's addr.
  const domain = await context.db.find(schema.domain, { id: domainId(event.args.node) });
  if (domain && domain.resolverId === resolver.id) {
    await context.db.update(schema.domain, { id: domain.id }).set({ resolvedAddressId: addrId });
  }
  await context.db
    .insert(schema.addrChanged)
    .values({ ...eventFields(settings, context, event), resolverId: resolver.id, addrId });
}

export async function addressChanged(
  context: IndexingContext,
  event: IndexedEvent<EventArgs<typeof ResolverAbi, "AddressChanged">>,
) {
  const settings = handlerSettings();
  const { coinType, newAddress } = event.args;
  const resolver = await upsertResolver(context, event, (row) =>
    row?.coinTypes?.includes(coinType) ? {} : { coinTypes: [...(row?.coinTypes ?? []), coinType] },
  );
  await context.db.insert(schema.multicoinAddrChanged).values({
    ...eventFields(settings, context, event),
    resolverId: resolver.id,
    coinType,
    addr: newAddress,
  });
}

export async function nameChanged(
  context: IndexingContext,
  event: IndexedEvent<EventArgs<typeof ResolverAbi, "NameChanged">>,
) {
  // The subgraph skips reverse names with a NUL byte altogether.
  if (event.args.name.includes("\0")) return;
  const settings = handlerSettings();
  await context.db.insert(schema.nameChanged).values({
    ...eventFields(settings, context, event),
    resolverId: idOf(context, event),
    name: event.args.name,
  });
}

export async function abiChanged(
  context: IndexingContext,
  event: IndexedEvent<EventArgs<typeof ResolverAbi, "ABIChanged">>,
) {
  const settings = handlerSettings();
  await context.db.insert(schema.abiChanged).values({
    ...eventFields(settings, context, event),
    resolverId: idOf(context, event),
    contentType: event.args.contentType,
  });
}

export async function pubkeyChanged(
  context: IndexingContext,
  event: IndexedEvent<EventArgs<typeof ResolverAbi, "PubkeyChanged">>,
) {
  const settings = handlerSettings();
  await context.db.insert(schema.pubkeyChanged).values({
    ...eventFields(settings, context, event),
    resolverId: idOf(context, event),
    x: event.args.x,
    y: event.args.y,
  });
}

/** Both TextChanged variants; only the newer one carries the value (undefined for the older). */
export async function textChanged(
  context: IndexingContext,
  event: IndexedEvent<{ node: Hex; key: string; value?: string }>,
) {
  const settings = handlerSettings();
  const key = withoutNul(event.args.key);
  const resolver = await upsertResolver(context, event, (row) =>
    row?.texts?.includes(key) ? {} : { texts: [...(row?.texts ?? []), key] },
  );
  await context.db.insert(schema.textChanged).values({
    ...eventFields(settings, context, event),
    resolverId: resolver.id,
    key,
    value: event.args.value === undefined ? null : withoutNul(event.args.value),
  });
}

/**
 * A 3DNS resolver's DNS record (DNSRecordChanged with a TTL, DNSRecordDeleted): a TXT record at `<key>.ens` is the text
 * `key` (see textOfDnsTxtRecord), so the key joins the resolver's texts, or leaves them when the record is deleted.
 * The ENS subgraph never indexed 3DNS: compatible mode ignores these.
 */
export async function dnsTxtRecordChanged(
  context: IndexingContext,
  event: IndexedEvent<{ node: Hex; name: Hex; resource: number; record?: Hex }>,
) {
  const settings = handlerSettings();
  if (settings.isSubgraphCompatible) return;
  const text = textOfDnsTxtRecord(event.args.name, event.args.resource, event.args.record);
  if (text === null) return;
  const key = withoutNul(text.key);
  const resolver = await upsertResolver(context, event, (row) => {
    const texts = row?.texts ?? [];
    if (text.value === null) return texts.includes(key) ? { texts: texts.filter((k) => k !== key) } : {};
    return texts.includes(key) ? {} : { texts: [...texts, key] };
  });
  await context.db.insert(schema.textChanged).values({
    ...eventFields(settings, context, event),
    resolverId: resolver.id,
    key,
    value: text.value === null ? null : withoutNul(text.value),
  });
}

export async function contenthashChanged(
  context: IndexingContext,
  event: IndexedEvent<EventArgs<typeof ResolverAbi, "ContenthashChanged">>,
) {
  const settings = handlerSettings();
  const resolver = await upsertResolver(context, event, () => ({ contentHash: event.args.hash }));
  await context.db.insert(schema.contenthashChanged).values({
    ...eventFields(settings, context, event),
    resolverId: resolver.id,
    hash: event.args.hash,
  });
}

export async function interfaceChanged(
  context: IndexingContext,
  event: IndexedEvent<EventArgs<typeof ResolverAbi, "InterfaceChanged">>,
) {
  const settings = handlerSettings();
  await context.db.insert(schema.interfaceChanged).values({
    ...eventFields(settings, context, event),
    resolverId: idOf(context, event),
    interfaceID: event.args.interfaceID,
    implementer: event.args.implementer.toLowerCase() as Address,
  });
}

export async function authorisationChanged(
  context: IndexingContext,
  event: IndexedEvent<EventArgs<typeof ResolverAbi, "AuthorisationChanged">>,
) {
  const settings = handlerSettings();
  await context.db.insert(schema.authorisationChanged).values({
    ...eventFields(settings, context, event),
    resolverId: idOf(context, event),
    owner: event.args.owner.toLowerCase() as Address,
    target: event.args.target.toLowerCase() as Address,
    isAuthorized: event.args.isAuthorised,
  });
}

/** A version bump clears every record of the node on that resolver. */
export async function versionChanged(
  context: IndexingContext,
  event: IndexedEvent<EventArgs<typeof ResolverAbi, "VersionChanged">>,
) {
  const settings = handlerSettings();
  const id = idOf(context, event);
  await context.db.insert(schema.versionChanged).values({
    ...eventFields(settings, context, event),
    resolverId: id,
    version: event.args.newVersion,
  });
  const domain = await context.db.find(schema.domain, { id: domainId(event.args.node) });
  if (domain && domain.resolverId === id) {
    await context.db.update(schema.domain, { id: domain.id }).set({ resolvedAddressId: null });
  }
  await upsertResolver(context, event, () => ({ addrId: null, contentHash: null, texts: null, coinTypes: null }));
}
