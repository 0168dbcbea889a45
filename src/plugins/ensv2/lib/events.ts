import * as schema from "ponder:schema";
import type { Hex } from "viem";
import { eventId } from "../../../lib/ids";
import { handlerSettings } from "../../shared/ens-handlers/context";
import { emitter, type IndexedEvent, type IndexingContext } from "./context";

/** The columns every ENSv2 row made from one log shares (id `<block>-<logIndex>`, as the other event tables). */
export function logColumns(context: IndexingContext, event: IndexedEvent<unknown>) {
  return {
    id: eventId(handlerSettings(), context.chain.id, event.block.number, event.log.logIndex),
    chainId: context.chain.id,
    blockNumber: event.block.number,
    blockTimestamp: event.block.timestamp,
    logIndex: event.log.logIndex,
    transactionHash: event.transaction.hash.toLowerCase() as Hex,
  };
}

/** Decoded arguments as JSON: uint256 values as decimal strings, arrays kept. */
export function argsAsJson(args: unknown): unknown {
  if (typeof args === "bigint") return args.toString();
  if (Array.isArray(args)) return args.map(argsAsJson);
  if (args !== null && typeof args === "object") {
    return Object.fromEntries(Object.entries(args).map(([k, v]) => [k, argsAsJson(v)]));
  }
  return args;
}

/**
 * Keeps the event as emitted in ensv2_event, and puts it in the history of each name it is about: none (null), one,
 * or every name whose token a TransferBatch moved, each once.
 */
export async function recordEvent(
  context: IndexingContext,
  event: IndexedEvent<unknown>,
  eventName: string,
  about: string | null | readonly string[] = null,
): Promise<void> {
  const log = logColumns(context, event);
  await context.db.insert(schema.ensv2Event).values({
    ...log,
    contract: emitter(event),
    eventName,
    args: argsAsJson(event.args),
  });
  const domainIds = new Set(about === null ? [] : typeof about === "string" ? [about] : about);
  for (const domainId of domainIds) {
    await context.db.insert(schema.ensv2DomainEvent).values({
      domainId,
      eventId: log.id,
      chainId: log.chainId,
      blockNumber: log.blockNumber,
      logIndex: log.logIndex,
    });
  }
}
