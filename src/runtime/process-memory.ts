import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { PGlite } from "@electric-sql/pglite";

/**
 * How far V8 lets the heap grow past what survived the last full collection before it collects again, in percent.
 * V8's own factor goes up to 4× on a machine with ≥16 GiB (a 4 GiB heap limit), and Ponder's backfill allocates
 * fast enough to get it: a 10,000-name devnet's ~150 MiB of live data (code, ens-normalize's tables, the row cache,
 * the event batch in flight) sat in a 400–480 MiB heap at the peak; with all seven plugins on PostgreSQL, ~210 MiB
 * of live data (a heap snapshot near the end of the backfill) in a heap of up to 580 MiB. 1.3× (PGlite) or 1.6×
 * (PostgreSQL) keeps the heap at that multiple of its live data; it is a ratio, not a cap, so a mainnet index's heap
 * (row cache up to PONDER_CACHE_BYTES) still grows as far as its data does, with a full collection every 30 or 60 %
 * of growth (each one tens of milliseconds at devnet size, mostly on V8's background threads).
 */
export const HEAP_GROWING_PERCENT = { pglite: 30, postgres: 60 } as const;

/**
 * Memory settings for the `ponder start`/`ponder serve` process, applied from ponder.config.ts so that every way of
 * starting it gets them (npm start, the harness, an operator's own `ponder start`) without a flag on the command
 * line. V8 reads `--heap-growing-percent` each time it sets the next collection's limit, so it takes effect from
 * inside the running process (flags that size the heap at start-up, such as `--max-old-space-size`, would not;
 * and flags that change how V8 collects, such as `--single-threaded-gc`, crash it when set this late).
 */
export function tuneProcessMemory(database: "pglite" | "postgres"): void {
  const state = globalThis as { nameindexMemoryTuned?: true };
  if (state.nameindexMemoryTuned) return; // Ponder may evaluate ponder.config.ts more than once per process.
  state.nameindexMemoryTuned = true;
  // On PGlite, PostgreSQL's WebAssembly is most of the CPU and the extra full collections did not show in the
  // process's CPU time. On PostgreSQL the process does little but allocate and collect, so each full collection
  // shows: all seven plugins on a 10,000-name devnet (237,046 events) took 57.0 s of CPU and peaked at 714 MiB with
  // V8's own policy, 62.5 s and 502 MiB at 60 %, 63.3 s and 527 MiB at 100 %, 68.9 s and 431 MiB at 30 % (load
  // 4–5; docs/benchmarks.md, "Where indexing time and memory go"). 60 % is the knee: 10 % more CPU for 30 % less memory.
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT[database]}`);
  if (database === "pglite") releaseClosedPglites();
}

/**
 * A closed PGlite's ~256 MiB WebAssembly heap is not pressure on V8's own heap, so it stays resident until a full
 * collection (measured: external memory 520 MiB instead of 260 when `ponder start` still closed its "database
 * diagnostic" instance and opened another; the ponder patch now hands the diagnostic's instance over instead). One full
 * collection right after a PGlite closes returns it before the next instance grows (`ponder dev` reloads, tests).
 * Costs one GC (~0.1 s) per close.
 */
function releaseClosedPglites(): void {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  const proto = PGlite.prototype;
  const close = proto.close;
  proto.close = async function (this: PGlite) {
    await close.call(this);
    // After the caller has dropped its reference (it returns once close resolves).
    setImmediate(gc);
  };
}
