import type { Address } from "viem";
import { getConfig } from "../../../config";
import type { IndexedEvent, IndexingContext } from "../../shared/ens-handlers/context";

export type { IndexedEvent, IndexingContext };

/** The fixed ENSv2 contracts the handlers must recognise: the root of the tree and the registry `.eth` lives in. */
export interface Ensv2Anchors {
  rootRegistry: Address;
  ethRegistry: Address;
}

let anchors: Ensv2Anchors | undefined;

export function ensv2Anchors(): Ensv2Anchors {
  if (!anchors) {
    const contracts = getConfig().namespace.datasources.ensv2?.contracts;
    const rootRegistry = contracts?.RootRegistry?.address;
    const ethRegistry = contracts?.ETHRegistry?.address;
    if (!rootRegistry || !ethRegistry)
      throw new Error("ensv2: the namespace's ensv2 datasource needs RootRegistry and ETHRegistry addresses");
    anchors = {
      rootRegistry: rootRegistry.toLowerCase() as Address,
      ethRegistry: ethRegistry.toLowerCase() as Address,
    };
  }
  return anchors;
}

/** Replaces the anchors read from the config (tests of the logic without a namespace). */
export function setEnsv2Anchors(next: Ensv2Anchors | undefined): void {
  anchors = next;
}

/** The emitting contract, lowercase. */
export const emitter = (event: IndexedEvent<unknown>): Address => event.log.address.toLowerCase() as Address;
