import * as schema from "ponder:schema";
import { bytesToHex, type Hex, hexToBytes } from "viem";
import type { ResolverAbi } from "../../../../abis";
import { getConfig } from "../../../config";
import { recordKeyId } from "../../../lib/resolution-ids";
import type { EventArgs, IndexedEvent, IndexingContext } from "../../shared/ens-handlers/context";
import * as resolver from "./resolver";
import { type ReadingContext, readResolver } from "./resolver-reads";

/*
 * The record kinds whose events do not carry everything a read answers: ABIChanged names only the content type,
 * the older TextChanged only the key. Each value is read once from the resolver while indexing (resolver-reads.ts),
 * so resolution answers from the index. DNSZonehashChanged carries its value. With RESOLVER_READS=false (an RPC that
 * keeps no past state) nothing is read: the text keeps its key without a value and the ABI's content type has no
 * data row, and resolution asks the chain for either.
 */

/** ABIChanged: the content type joins the records' list, and its data (read at the event's block) is kept. */
export async function abiChanged(
  context: ReadingContext,
  event: IndexedEvent<EventArgs<typeof ResolverAbi, "ABIChanged">>,
) {
  await resolver.abiChanged(context, event);
  if (!getConfig().resolverReads) return;
  const { node, contentType } = event.args;
  const answer = await readResolver<readonly [bigint, Hex]>(context, event, "ABI", [node, contentType]);
  // ABI() answers (0, "") for a content type whose data is empty: setABI with no data removes it.
  const data = answer && answer[0] === contentType ? bytesToHex(hexToBytes(answer[1])) : "0x";
  const records = await resolver.recordsOf(context, event);
  await context.db
    .insert(schema.resolverAbiRecord)
    .values({
      id: recordKeyId(records.id, records.version, contentType.toString()),
      recordsId: records.id,
      contentType,
      data,
    })
    .onConflictDoUpdate({ data });
}

/** The older TextChanged(node, indexedKey, key): the value is read from the resolver at the event's block. */
export async function valuelessTextChanged(context: ReadingContext, event: IndexedEvent<{ node: Hex; key: string }>) {
  const value = getConfig().resolverReads
    ? await readResolver<string>(context, event, "text", [event.args.node, event.args.key])
    : undefined;
  // A resolver that cannot answer text() keeps the key without a value: resolution then asks the chain.
  await resolver.textChanged(context, { ...event, args: { node: event.args.node, key: event.args.key, value } });
}

/** IDNSZoneResolver's DNSZonehashChanged: the new zonehash (empty bytes: cleared). */
export async function dnsZonehashChanged(
  context: IndexingContext,
  event: IndexedEvent<EventArgs<typeof ResolverAbi, "DNSZonehashChanged">>,
) {
  const records = await resolver.recordsOf(context, event);
  await context.db
    .update(schema.resolverRecords, { id: records.id })
    .set({ dnszonehash: bytesToHex(hexToBytes(event.args.zonehash)) });
}
