import { ponder } from "ponder:registry";
import { getConfig } from "../../config";
import type { IndexedEvent, IndexingContext } from "../../lib/ens-handlers/context";
import { composeContracts } from "../compose";
import { handlerTotalsOf } from "../../lib/metrics";
// Loaded with every handler: tells Ponder's row cache how the handlers derive row keys from events.
import "../../lib/row-key-derivations";

let indexed: Set<string> | undefined;

/**
 * Whether Ponder indexes `<plugin>/<Contract>` in this process: the plugin is active and the namespace has the
 * contract (optional ones, such as a later controller, may be missing). Handlers for anything else must not be
 * registered, since Ponder rejects handlers for contracts it does not know.
 */
export function isIndexed(contract: string): boolean {
  indexed ??= new Set(Object.keys(composeContracts(getConfig())));
  return indexed.has(contract);
}

type RawRegister = (
  name: string,
  fn: (args: { event: IndexedEvent<never>; context: IndexingContext }) => Promise<void>,
) => void;

/**
 * `ponder.on` for shared logic written as `(context, event) => …`. The contracts are composed at run time from the
 * active plugins, so Ponder's generated types cannot see their event names; the args types come from the shared
 * logic's signatures instead, which mirror the ABIs in abis/.
 */
export function on<Args>(name: string, handler: (context: IndexingContext, event: IndexedEvent<Args>) => Promise<void>): void {
  if (handlersAreNoops()) return void (ponder.on as unknown as RawRegister)(name, async () => {});
  const totals = handlerTotalsOf(name.slice(0, name.indexOf("/")));
  (ponder.on as unknown as RawRegister)(name, async ({ event, context }) => {
    const started = performance.now();
    try {
      await handler(context, event as IndexedEvent<Args>);
    } finally {
      totals.seconds += (performance.now() - started) / 1000;
      totals.events += 1;
    }
  });
}

/**
 * `NAMEINDEX_NOOP_HANDLERS=true` registers every handler as a no-op: the benchmark's floor (what Ponder itself
 * costs for the same events). Never set it for a real index.
 */
const handlersAreNoops = (): boolean => getConfig().noopHandlers;

/** A contract's setup function, run once before its first event. */
export function onSetup(contract: string, handler: (context: IndexingContext) => Promise<void>): void {
  (ponder.on as unknown as RawRegister)(`${contract}:setup`, ({ context }) => handler(context));
}
