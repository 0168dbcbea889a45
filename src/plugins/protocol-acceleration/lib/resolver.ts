import * as schema from "ponder:schema";
import { type Address, bytesToHex, concat, type Hex, hexToBytes, keccak256, zeroAddress } from "viem";
import type { ResolverAbi } from "../../../../abis";
import { ETH_COIN_TYPE } from "../../../lib/coin-types";
import { decodeDnsWireName, textOfDnsTxtRecord } from "../../../lib/dns-wire";
import { recordKeyId, resolverRecordsId } from "../../../lib/resolution-ids";
import type { EventArgs, IndexedEvent, IndexingContext } from "../../shared/ens-handlers/context";
import { addressRecordChanged, recordsCleared } from "../../shared/name-references";

/*
 * Resolver records keyed by (chain, resolver, node), as the resolver would answer reads. Keyed records carry the
 * records' version in their ids (see resolverRecords in ponder.schema.ts), so VersionChanged clears them like
 * PublicResolver's clearRecords does.
 */

type NodeEvent<A = object> = IndexedEvent<{ node: Hex } & A>;

/** The node's records on the emitting resolver, created on first write. */
export async function recordsOf(context: IndexingContext, event: NodeEvent) {
  const id = resolverRecordsId(context.chain.id, event.log.address, event.args.node);
  const found = await context.db.find(schema.resolverRecords, { id });
  if (found) return found;
  return context.db
    .insert(schema.resolverRecords)
    .values({ id, chainId: context.chain.id, resolver: event.log.address.toLowerCase() as Hex, node: event.args.node });
}

async function setAddress(context: IndexingContext, event: NodeEvent, coinType: bigint, value: Hex) {
  const records = await recordsOf(context, event);
  await context.db
    .insert(schema.resolverAddressRecord)
    .values({
      id: recordKeyId(records.id, records.version, coinType.toString()),
      recordsId: records.id,
      coinType,
      value,
    })
    .onConflictDoUpdate({ value });
  await addressRecordChanged(context, records.id, coinType, value);
}

export async function addrChanged(
  context: IndexingContext,
  event: IndexedEvent<EventArgs<typeof ResolverAbi, "AddrChanged">>,
) {
  const a = event.args.a.toLowerCase() as Hex;
  // A multicoin resolver clearing ETH's address (`setAddr(node, 60, "")`) emits AddressChanged with no bytes, then
  // AddrChanged with the zero address: the record is empty, not 20 zero bytes (PermissionedResolver then answers
  // the default EVM address for it).
  if (a === zeroAddress) {
    const records = await context.db.find(schema.resolverRecords, {
      id: resolverRecordsId(context.chain.id, event.log.address, event.args.node),
    });
    const current =
      records &&
      (await context.db.find(schema.resolverAddressRecord, {
        id: recordKeyId(records.id, records.version, ETH_COIN_TYPE.toString()),
      }));
    if (current?.value === "0x") return;
  }
  await setAddress(context, event, ETH_COIN_TYPE, a);
}

export async function addressChanged(
  context: IndexingContext,
  event: IndexedEvent<EventArgs<typeof ResolverAbi, "AddressChanged">>,
) {
  // Normalise the hex (lowercase; `0x` when empty).
  await setAddress(context, event, event.args.coinType, bytesToHex(hexToBytes(event.args.newAddress)));
}

export async function nameChanged(
  context: IndexingContext,
  event: IndexedEvent<EventArgs<typeof ResolverAbi, "NameChanged">>,
) {
  const records = await recordsOf(context, event);
  await context.db.update(schema.resolverRecords, { id: records.id }).set({ name: event.args.name });
}

/** Both TextChanged variants: the older one has no value, so the key is present with an unknown value. */
export async function textChanged(context: IndexingContext, event: NodeEvent<{ key: string; value?: string }>) {
  const records = await recordsOf(context, event);
  const { key, value } = event.args;
  const set = { value: value ?? null, hasValue: value !== undefined };
  await context.db
    .insert(schema.resolverTextRecord)
    .values({ id: recordKeyId(records.id, records.version, key), recordsId: records.id, key, ...set })
    .onConflictDoUpdate(set);
}

/**
 * A 3DNS resolver's DNS record: a TXT record at `<key>.ens` is the text `key` (see textOfDnsTxtRecord). `threedns`
 * lists the 3DNS resolvers (lowercase): ens-contracts' resolvers keep DNS records apart from texts, so their
 * DNSRecordDeleted (the same event) changes no text.
 */
export function dnsRecordChanged(threedns: ReadonlySet<string>) {
  return async (context: IndexingContext, event: NodeEvent<{ name: Hex; resource: number; record?: Hex }>) => {
    if (!threedns.has(event.log.address.toLowerCase())) return;
    const text = textOfDnsTxtRecord(event.args.name, event.args.resource, event.args.record);
    if (text === null) return;
    // A deleted text reads as the empty string, like a text never set.
    await textChanged(context, { ...event, args: { node: event.args.node, key: text.key, value: text.value ?? "" } });
  };
}

export async function contenthashChanged(
  context: IndexingContext,
  event: IndexedEvent<EventArgs<typeof ResolverAbi, "ContenthashChanged">>,
) {
  const records = await recordsOf(context, event);
  await context.db
    .update(schema.resolverRecords, { id: records.id })
    .set({ contenthash: event.args.hash.toLowerCase() as Hex });
}

export async function pubkeyChanged(
  context: IndexingContext,
  event: IndexedEvent<EventArgs<typeof ResolverAbi, "PubkeyChanged">>,
) {
  const records = await recordsOf(context, event);
  await context.db
    .update(schema.resolverRecords, { id: records.id })
    .set({ pubkeyX: event.args.x, pubkeyY: event.args.y });
}

export async function abiChanged(
  context: IndexingContext,
  event: IndexedEvent<EventArgs<typeof ResolverAbi, "ABIChanged">>,
) {
  const records = await recordsOf(context, event);
  if (records.abiContentTypes.includes(event.args.contentType)) return;
  const abiContentTypes = [...records.abiContentTypes, event.args.contentType].sort((a, b) => (a < b ? -1 : 1));
  await context.db.update(schema.resolverRecords, { id: records.id }).set({ abiContentTypes });
}

export async function interfaceChanged(
  context: IndexingContext,
  event: IndexedEvent<EventArgs<typeof ResolverAbi, "InterfaceChanged">>,
) {
  const records = await recordsOf(context, event);
  const interfaceId = event.args.interfaceID.toLowerCase() as Hex;
  const implementer = event.args.implementer.toLowerCase() as Hex;
  await context.db
    .insert(schema.resolverInterfaceRecord)
    .values({
      id: recordKeyId(records.id, records.version, interfaceId),
      recordsId: records.id,
      interfaceId,
      implementer,
    })
    .onConflictDoUpdate({ implementer });
}

/** VersionChanged (clearRecords): every record of the node on this resolver is gone; later writes use the new version. */
export async function versionChanged(
  context: IndexingContext,
  event: IndexedEvent<EventArgs<typeof ResolverAbi, "VersionChanged">>,
) {
  const records = await recordsOf(context, event);
  await context.db.update(schema.resolverRecords, { id: records.id }).set({
    version: event.args.newVersion,
    name: null,
    contenthash: null,
    pubkeyX: null,
    pubkeyY: null,
    abiContentTypes: [],
    dnszonehash: null,
  });
  await recordsCleared(context, records.id);
}

/**
 * ENSv2 PermissionedResolver's setAlias: names under `fromName` resolve as under `toName` (`0x`: no alias). Keyed by
 * NameCoder's namehash of `fromName` (each label's bytes hashed as they are), as the resolver stores it.
 */
export async function aliasChanged(context: IndexingContext, event: IndexedEvent<{ fromName: Hex; toName: Hex }>) {
  const labels = decodeDnsWireName(event.args.fromName);
  // setAlias reverts on a name NameCoder cannot read; such an event cannot come from a PermissionedResolver.
  if (labels === null) return;
  let fromNode: Hex = `0x${"00".repeat(32)}`;
  for (let i = labels.length - 1; i >= 0; i--) fromNode = keccak256(concat([fromNode, labels[i]!.labelhash]));
  const resolver = event.log.address.toLowerCase() as Address;
  const values = { fromName: event.args.fromName.toLowerCase() as Hex, toName: event.args.toName.toLowerCase() as Hex };
  await context.db
    .insert(schema.resolverAlias)
    .values({
      id: `${context.chain.id}-${resolver}-${fromNode}`,
      chainId: context.chain.id,
      resolver,
      fromNode,
      ...values,
    })
    .onConflictDoUpdate(values);
}
