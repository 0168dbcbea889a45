import { type AbiEvent, type Address, decodeEventLog, type Hex } from "viem";
import { Ensv2EthRegistrarAbi, Ensv2EthRegistrarIndexedReferrerAbi } from "../../../../abis/ensv2";
import type { IndexedEvent } from "./context";
import type { NameRegisteredPrice, NameRenewedArgs } from "./registrations";

/*
 * The `.eth` registrar's NameRegistered and NameRenewed come in two layouts under one topic hash each (docs/ensv2.md,
 * "Two builds of the registrar"): contracts-v2's public source keeps `referrer` in the data (two topics), the build
 * deployed for sepolia-v2 indexes it (three topics). Ponder decodes every log with the first layout whatever its
 * topics (its decoder reads the data words it expects and ignores a topic more), so its arguments are right for that
 * layout only: each log is decoded again here, strictly, in the layout its topic count names. A log that neither
 * layout decodes stops indexing with an error naming the contract and the event: a registration or renewal is never
 * dropped, nor recorded with a price read from the wrong words.
 */

export type RegistrarEventName = "NameRegistered" | "NameRenewed";

/** What the handlers read, whichever layout: the deployed build's renewal `amount` is the source's `base`. */
export interface RegistrarEventArgs {
  NameRegistered: NameRegisteredPrice & { label: string };
  NameRenewed: NameRenewedArgs & { label: string };
}

interface Layout {
  topics: number;
  what: string;
  abi: readonly AbiEvent[];
}

const LAYOUTS: Layout[] = [
  { topics: 2, what: "referrer in the data, as contracts-v2's source", abi: Ensv2EthRegistrarAbi },
  { topics: 3, what: "referrer indexed, as the sepolia-v2 deployment", abi: Ensv2EthRegistrarIndexedReferrerAbi },
];

/** The raw log Ponder hands a handler beside its own decoding. */
export interface RegistrarLogEvent extends IndexedEvent<unknown> {
  log: IndexedEvent<unknown>["log"] & { topics: readonly (Hex | null)[]; data: Hex };
}

export interface DecodedRegistrarEvent<N extends RegistrarEventName> {
  /** The arguments under the names the handlers use. */
  args: RegistrarEventArgs[N];
  /** The arguments as the log's own layout names them (ensv2_event keeps the event as emitted). */
  emitted: Record<string, unknown>;
}

/** Decodes one of the registrar's price events in the layout its topic count names; throws if it has neither. */
export function decodeRegistrarEvent<N extends RegistrarEventName>(
  contract: string,
  eventName: N,
  event: RegistrarLogEvent,
): DecodedRegistrarEvent<N> {
  const topics = event.log.topics.filter((t): t is Hex => t !== null);
  const layout = LAYOUTS.find((l) => l.topics === topics.length);
  const where = () =>
    `${contract} (${event.log.address.toLowerCase() as Address}): ${eventName} in tx ${event.transaction.hash} (block ${event.block.number}, log ${event.log.logIndex})`;
  const layouts = LAYOUTS.map((l) => `${l.topics} topics (${l.what})`).join(" or ");
  if (!layout) {
    throw new Error(`${where()} has ${topics.length} topics, a layout of neither build: ${layouts}`);
  }
  const abiEvent = layout.abi.find((e) => e.name === eventName)!;
  let emitted: Record<string, unknown>;
  try {
    const decoded = decodeEventLog({
      abi: [abiEvent],
      topics: topics as [Hex, ...Hex[]],
      data: event.log.data,
      strict: true,
    });
    emitted = { ...(decoded.args as unknown as Record<string, unknown>) };
    // Addresses lowercase, as Ponder's own decoding gives them (viem checksums them).
    for (const input of abiEvent.inputs) {
      if (input.type === "address" && input.name) emitted[input.name] = String(emitted[input.name]).toLowerCase();
    }
  } catch (error) {
    const reason = error instanceof Error ? (error.message.split("\n")[0] ?? error.message) : String(error);
    throw new Error(
      `${where()} does not decode in the layout its ${topics.length} topics name (${layout.what}): ${reason}`,
    );
  }
  const args = eventName === "NameRenewed" && "amount" in emitted ? { ...emitted, base: emitted.amount } : emitted;
  return { args: args as unknown as RegistrarEventArgs[N], emitted };
}
