import type { Context } from "ponder:registry";
import type { Address, Hex } from "viem";
import { getConfig } from "../../config";
import { healLabel } from "../healing";
import type { IdContext } from "../ids";
import type { LabelMode } from "../labels";

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
  transaction: { hash: Hex };
}

/** Process-wide switches for the shared logic; read from the config once. */
export interface HandlerSettings extends IdContext {
  labelMode: LabelMode;
  /** The ENS root chain (whose .eth registrations keep the subgraph's labelhash ids), if the namespace has one. */
  ensRootChainId: number | undefined;
  heal: (labelhash: Hex) => Promise<string | null>;
}

let settings: HandlerSettings | undefined;

export function handlerSettings(): HandlerSettings {
  if (!settings) {
    const config = getConfig();
    settings = {
      isSubgraphCompatible: config.isSubgraphCompatible,
      labelMode: config.isSubgraphCompatible ? "subgraph" : "normalized",
      ensRootChainId: config.namespace.datasources.ensroot?.chain.id,
      heal: healLabel,
    };
  }
  return settings;
}
