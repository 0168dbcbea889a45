/**
 * glibc's malloc tunables for the `ponder start`/`ponder serve` process. glibc reads them once, when the process
 * starts, so a process cannot set them on itself (ponder.config.ts runs too late): whatever spawns Ponder passes
 * them. Measured on a 10,000-name PGlite run (docs/benchmarks.md, "Where indexing time and memory go"):
 *
 * - MALLOC_ARENA_MAX: by default each thread that allocates concurrently gets its own malloc arena (up to 8 per
 *   core) and a freed block stays in its arena. V8's background threads (concurrent compilation of the app and of
 *   PGlite's WebAssembly, GC helpers) and libuv's pool left ~80 MiB of arenas resident; with at most two, ~15–30.
 * - MALLOC_MMAP_THRESHOLD_: glibc's threshold for serving a block with its own mmap starts at 128 KiB but rises to
 *   the size of every such block freed (up to 32 MiB), and the trim threshold with it. PGlite's query messages and
 *   results are buffers of up to megabytes, so after the first one was freed they came from the main heap, whose
 *   freed space stayed resident (~60 MiB). Fixed at 128 KiB, each one is unmapped when freed (~35 MiB).
 */
export const PONDER_MALLOC_DEFAULTS = {
  MALLOC_ARENA_MAX: "2",
  MALLOC_MMAP_THRESHOLD_: "131072",
} as const;

/**
 * V8's young generation for a PGlite run (no DATABASE_URL), in NODE_OPTIONS because V8 sizes it once, at start-up.
 * Its default (16 MiB per semi-space on 64-bit) was ~20 MiB of a 10,000-name backfill's peak RSS (524–540 against
 * 551–560 MiB in interleaved runs, session 6) with no measurable change in time: the indexer's live data is the row
 * cache, which survives into the old generation either way. PostgreSQL runs keep V8's default (not measured there).
 */
export const PONDER_PGLITE_NODE_OPTIONS = "--max-semi-space-size=8";

/**
 * Ponder's row cache bound (bytes of its own estimate of the cached rows), read once at start-up. Ponder's default is a
 * fifth of V8's heap limit (832 MiB on a 24 GiB machine), so the indexer's RSS grew with the index to ~1.2 GiB at
 * 50,000 devnet names and would reach ~2–2.5 GiB on mainnet. Once patches 021–023 let Ponder predict our row keys, a
 * backfill with every table evicted costs what one with every row cached does (10,000 names: 71.7 against 69.5 s of
 * CPU), so the bound buys nothing but memory (docs/benchmarks.md, "The row cache bounded").
 */
export const PONDER_CACHE_BYTES_DEFAULT = String(256 * 1024 * 1024);

/** The environment to spawn Ponder with: an operator's own value for any of these wins over the default. */
export function withPonderMemoryDefaults(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const defaults = Object.entries({ ...PONDER_MALLOC_DEFAULTS, PONDER_CACHE_BYTES: PONDER_CACHE_BYTES_DEFAULT }).filter(
    ([name]) => !env[name],
  );
  const nodeOptions = env.NODE_OPTIONS ?? "";
  const withYoungGeneration =
    env.DATABASE_URL || nodeOptions.includes("--max-semi-space-size")
      ? {}
      : { NODE_OPTIONS: `${nodeOptions} ${PONDER_PGLITE_NODE_OPTIONS}`.trim() };
  return { ...env, ...Object.fromEntries(defaults), ...withYoungGeneration };
}
