import type { Context } from "ponder:registry";
import type { Abi, Address, ContractEventName, GetEventArgs, Hex } from "viem";
import { getConfig } from "../../../config";
import { healLabel, noteIndexedBlock } from "../../../lib/healing";
import type { IdContext } from "../../../lib/ids";
import type { LabelMode } from "../../../lib/labels";

/** The part of Ponder's handler context the shared logic uses: the store and which chain the event is from. */
export interface IndexingContext {
  db: Context["db"];
  chain: { id: number };
}

/** The part of a Ponder log event the shared logic uses, with the handler's decoded arguments. */
export interface IndexedEvent<Args> {
  args: Args;
  block: { number: bigint; timestamp: bigint };
  log: { logIndex: number; address: Address };
  transaction: { hash: Hex; from: Address };
}

/**
 * An event's decoded arguments as Ponder hands them to a handler, from its ABI in abis/: the shared logic's event
 * types come from here, so a handler registered for a contract whose ABI disagrees does not compile.
 */
export type EventArgs<abi extends Abi, name extends ContractEventName<abi>> = GetEventArgs<
  abi,
  name,
  { EnableUnion: false; IndexedOnly: false; Required: true }
>;

/** Process-wide switches for the shared logic; read from the config once. */
export interface HandlerSettings extends IdContext {
  isSubgraphCompatible: boolean;
  labelMode: LabelMode;
  heal: (labelhash: Hex) => Promise<string | null>;
  /** Called as registry events go by, so healing can fetch upcoming labels in batches. */
  noteBlock: (chainId: number, block: bigint) => void;
}

let settings: HandlerSettings | undefined;

/** Replaces the settings read from the config (tests, or a process that wires its own healer). */
export function setHandlerSettings(next: HandlerSettings | undefined): void {
  settings = next;
}

export function handlerSettings(): HandlerSettings {
  if (!settings) {
    const config = getConfig();
    settings = {
      isSubgraphCompatible: config.isSubgraphCompatible,
      labelMode: config.isSubgraphCompatible ? "subgraph" : "normalized",
      ensRootChainId: config.namespace.datasources.ensroot?.chain.id,
      heal: healLabel,
      noteBlock: noteIndexedBlock,
    };
  }
  return settings;
}
