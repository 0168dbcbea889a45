import { type Context, type Event, type EventNames, ponder } from "ponder:registry";
import { getConfig } from "../../config";
import { pruneEntityHistory } from "../../lib/entity-history/pruning";
import { logWritePosition, setupWritePosition, withEntityHistory } from "../../lib/entity-history/writer";
import { handlerTotalsOf } from "../../runtime/metrics";
import { backfillBatchHooks, setBackfillBatchHooks } from "../../runtime/ponder-hooks";
import { composeContractList } from "../compose";
import { recordLog } from "./indexed-log";
import { backfillBatch } from "./write-behind/batch";
import { withWriteBehind } from "./write-behind/db";
import { setCurrentEvent } from "./write-behind/live";

let indexed: Set<string> | undefined;

/**
 * Whether Ponder indexes `<plugin>/<Contract>` in this process: the plugin is active and the namespace has the
 * contract (optional ones, such as a later controller, may be missing). Handlers for anything else must not be
 * registered, since Ponder rejects handlers for contracts it does not know.
 */
export function isIndexed(contract: string): boolean {
  indexed ??= new Set(Object.keys(composeContractList(getConfig())));
  return indexed.has(contract);
}

/** `<contract>:<event>` of every contract a plugin may index, typed from the ABIs in abis/ (src/plugins/compose.ts). */
export type LogEventName = Exclude<EventNames, `${string}:setup`>;
type SetupEventName = Extract<EventNames, `${string}:setup`>;
/** A contract's Ponder name, as `on` and `onSetup` take it. */
export type ContractName = SetupEventName extends `${infer C}:setup` ? C : never;
/** The contracts whose ABI has the event `E` (its name, or its full signature where the ABI overloads it). */
export type ContractWithEvent<E extends string> = LogEventName extends infer N
  ? N extends `${infer C}:${E}`
    ? C
    : never
  : never;

/**
 * `ponder.on` for logic written as `(context, event) => …`, with Ponder's own types for the event's arguments. Keeps
 * the log in `indexed_log` (indexed-log.ts), keeps the history of the subgraph's entities (src/lib/entity-history/), adds
 * the handler-time metrics, and honours the benchmark's no-op switch: `NAMEINDEX_NOOP_HANDLERS=true` registers every
 * handler as a no-op (the floor: what Ponder itself costs for the same events), `log` as one that only writes the log's
 * row (the floor plus one plain insert per log: what Ponder's store costs for the cheapest write). Never for a real index.
 */
export function on<N extends LogEventName>(
  name: N,
  handler: (context: Context<N>, event: Event<N>) => Promise<void>,
): void {
  const noop = getConfig().noopHandlers;
  if (noop === "log") {
    ponder.on(name, async ({ event, context }) => {
      await recordLog(name, context, event);
    });
    return;
  }
  if (noop) {
    ponder.on(name, async () => {});
    return;
  }
  const totals = handlerTotalsOf(name.slice(0, name.indexOf("/")));
  installWriteBehind();
  ponder.on(name, async ({ event, context: ponderContext }) => {
    // While the previous batch's rows are being sent, the socket gets a turn now and then (write-behind/batch.ts).
    const turn = backfillBatch.turn();
    if (turn !== undefined) await turn;
    const started = performance.now();
    try {
      if (writesBehind()) setCurrentEvent(name, ponderContext.chain.id, event);
      const context = writesBehind() ? withStore(ponderContext, withWriteBehind(ponderContext.db)) : ponderContext;
      // The steps with nothing to do return undefined: an await of it would still cost a promise per handler run.
      const logged = recordLog(name, context, event);
      if (logged !== undefined) await logged;
      if (!keepsHistory()) return await handler(context, event);
      const history = withEntityHistory(context.db, logWritePosition(name, context.chain.id, event as never));
      await handler(withStore(context, history.db), event);
      const versions = history.flush();
      if (versions !== undefined) await versions;
      const pruning = pruneEntityHistory(context, event.block);
      if (pruning !== undefined) await pruning;
    } finally {
      totals.seconds += (performance.now() - started) / 1000;
      totals.events += 1;
    }
  });
}

/**
 * Ponder's context with another store. Ponder hands every handler the same context object and changes its chain,
 * client and contracts in place, so a context that inherits from it stays current: made once per store, not copied
 * per event.
 */
function withStore<C extends { db: unknown }>(context: C, db: C["db"]): C {
  let byStore = contexts.get(context);
  if (byStore === undefined) contexts.set(context, (byStore = new Map()));
  let derived = byStore.get(db as object);
  if (derived === undefined) {
    derived = Object.create(context, { db: { value: db, enumerable: true } }) as object;
    byStore.set(db as object, derived);
  }
  return derived as C;
}
const contexts = new WeakMap<object, Map<object, object>>();

/** NAMEINDEX_WRITE_BEHIND: the backfill's insert-only rows go to the write-behind store (write-behind/README.md). */
const writesBehind = (): boolean => getConfig().writeBehind;

/** Hands the write-behind batch to Ponder's backfill loop (patch omnichain-backfill-batch-hooks), once. */
function installWriteBehind(): void {
  if (!writesBehind() || backfillBatchHooks() === backfillBatch) return;
  setBackfillBatchHooks(backfillBatch);
}

/** `SUBGRAPH_HISTORY_BLOCKS=none`: the entities' writes go to the store alone, with no version beside them. */
const keepsHistory = (): boolean => getConfig().subgraphHistoryBlocks !== 0;

/** A contract's setup function, run once before its first event. */
export function onSetup<C extends ContractName>(
  contract: C,
  handler: (context: Context<`${C}:setup`>) => Promise<void>,
): void {
  ponder.on(`${contract}:setup`, async ({ context }) => {
    if (!keepsHistory()) return await handler(context);
    const history = withEntityHistory(context.db, setupWritePosition(context.chain.id));
    await handler(withStore(context, history.db));
    await history.flush();
  });
}
