import { type Context, ponder } from "ponder:registry";
import type { Address, Hex } from "viem";
import { getConfig } from "../../../config";
import { composeContracts } from "../../compose";

/** The part of Ponder's handler context the registrars and tokenscope logic uses. */
export interface HandlerContext {
  db: Context["db"];
  chain: { id: number };
}

/** The part of a Ponder log event they use, with the handler's decoded arguments. */
export interface LogEvent<Args> {
  args: Args;
  block: { number: bigint; timestamp: bigint };
  log: { logIndex: number; address: Address };
  transaction: { hash: Hex; from: Address };
}

let indexed: Set<string> | undefined;

/**
 * Whether Ponder indexes `<plugin>/<datasource>/<Contract>` in this process: the plugin is active and the namespace
 * has the contract. Ponder rejects handlers for contracts it was not configured with.
 */
export function isIndexed(contract: string): boolean {
  indexed ??= new Set(Object.keys(composeContracts(getConfig())));
  return indexed.has(contract);
}

type RawOn = (name: string, fn: (args: { event: unknown; context: HandlerContext }) => Promise<void>) => void;

/**
 * `ponder.on` with the args type written next to the handler: the contracts are composed at run time, so Ponder's
 * generated types cannot see their events (the types mirror the ABIs in abis/).
 */
export function on<Args>(name: string, handler: (context: HandlerContext, event: LogEvent<Args>) => Promise<void>): void {
  (ponder.on as unknown as RawOn)(name, ({ event, context }) => handler(context, event as LogEvent<Args>));
}
