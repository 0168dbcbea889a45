import { type Abi, type AbiEvent, type Hex, toEventSelector } from "viem";
import { devnetAbis } from "./contracts";

/** An event a manifest contract can emit, with the key it is counted under in `scenario.eventCounts`. */
export interface CountedEvent {
  /** `EventName`, or Ponder's full signature for overloaded names, e.g. `TextChanged(bytes32 indexed node, …)`. */
  name: string;
  selector: Hex;
  event: AbiEvent;
}

/** Ponder's way of writing an event signature, used to tell overloaded events apart. */
export function ponderSignature(e: AbiEvent): string {
  return `${e.name}(${e.inputs.map((i) => `${i.type}${i.indexed ? " indexed" : ""} ${i.name}`).join(", ")})`;
}

/** The events of one or more contracts (deduplicated by selector), named as Ponder names them. */
export function eventsOf(abis: Abi[]): CountedEvent[] {
  const bySelector = new Map<Hex, AbiEvent>();
  for (const abi of abis) {
    for (const item of abi) if (item.type === "event" && !item.anonymous) bySelector.set(toEventSelector(item), item);
  }
  const events = [...bySelector.entries()];
  const nameCount = new Map<string, number>();
  for (const [, e] of events) nameCount.set(e.name, (nameCount.get(e.name) ?? 0) + 1);
  return events.map(([selector, event]) => ({
    name: (nameCount.get(event.name) ?? 0) > 1 ? ponderSignature(event) : event.name,
    selector,
    event,
  }));
}

/** Events of a manifest contract, given the contract names behind it (see MANIFEST_CONTRACT_SOURCES). */
export function manifestContractEvents(sources: string[]): CountedEvent[] {
  const abis = devnetAbis() as Record<string, Abi>;
  return eventsOf(
    sources.map((s) => {
      if (!abis[s]) throw new Error(`unknown contract ${s}`);
      return abis[s];
    }),
  );
}
