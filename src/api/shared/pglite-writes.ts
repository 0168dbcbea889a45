import { pgliteBehindReadGate } from "../../runtime/ponder-hooks";

/*
 * On PGlite the indexer and the API share one PGlite instance in one process, so the process knows when the index may
 * have changed: after a call into PGlite that may write. This counts those calls, so the /subgraph cache can tell "no
 * write completed since I last read the head" without asking PGlite (a round trip that queues behind the indexer).
 *
 * Every call Ponder makes goes through the instance's public `query`, `exec` or `transaction` (drizzle's PGlite
 * session calls `query`/`transaction`, the indexing cache's flush runs `COPY … FROM '/dev/blob'` through `query`,
 * Kysely's migrations `query`, live queries `query`/`exec`; PGlite's `sql` and `listen` call `query`/`exec` on the
 * instance). Statements inside `transaction` run on PGlite's transaction object, not these methods, so the whole
 * transaction counts once, when it has committed or rolled back. `execProtocol` is PGlite's internal step of those
 * three (Ponder calls it only to close the instance) and is not counted. The counter moves in the first microtask
 * after the call's promise settles, so by the time any other request (a new macrotask) looks, a completed write has
 * moved it; a call that fails counts too.
 *
 * The API's own reads go through `reader`, which calls the original methods on the same instance and so takes
 * PGlite's same locks, without counting: they change nothing, and counting them would make every uncached answer
 * cost the next request a head read.
 */

const METHODS = ["query", "exec", "transaction"] as const;
type Method = (typeof METHODS)[number];
type Call = (...args: never[]) => Promise<unknown>;

/** The part of a PGlite instance this wraps. */
export type PgliteEntryPoints = Record<Method, Call>;

export interface WriteGeneration {
  /** Incremented after every call that may have written completes. */
  readonly generation: number;
}

export interface TrackedPglite<T> {
  writes: WriteGeneration;
  /** The same instance for reads that must not count as writes (the API's own SELECTs). */
  reader: T;
}

// Ponder reloads the API's modules (`ponder dev`) on the same instance: wrap it once and hand the same tracker back.
const TRACKER = Symbol.for("nameindex.pgliteWriteTracker");

/**
 * Counts the calls into `client` (a PGlite instance, or the patch's gate in front of one) that may write; returns the
 * counter and a reader that does not count. The indexer writes through the instance itself, so that is what is counted;
 * the reader calls `client`'s own methods (through the gate, if there is one).
 */
export function trackPgliteWrites<T extends PgliteEntryPoints>(client: T): TrackedPglite<T> {
  const instance = pgliteBehindReadGate(client);
  const holder = instance as T & { [TRACKER]?: TrackedPglite<T> };
  if (holder[TRACKER]) return holder[TRACKER];

  const writes = { generation: 0 };
  const counted = () => {
    writes.generation++;
  };
  const originals = {} as Record<Method, Call>;
  for (const method of METHODS) {
    originals[method] = client[method];
    const original = instance[method];
    const wrapped = function (this: unknown, ...args: never[]) {
      return original.apply(this, args).then(
        (value) => {
          counted();
          return value;
        },
        (error: unknown) => {
          counted();
          throw error;
        },
      );
    };
    Object.defineProperty(instance, method, { value: wrapped, configurable: true, writable: true });
  }

  const reader = new Proxy(instance, {
    get(target, property) {
      if ((METHODS as readonly PropertyKey[]).includes(property)) {
        const original = originals[property as Method];
        return (...args: never[]) => original.apply(target, args);
      }
      // PGlite keeps its state in private fields: its methods must run with the instance itself as `this`.
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });

  const tracker: TrackedPglite<T> = { writes, reader };
  Object.defineProperty(instance, TRACKER, { value: tracker });
  return tracker;
}
