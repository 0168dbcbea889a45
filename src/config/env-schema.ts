import { z } from "zod";
import { NAMESPACE_NAMES } from "../namespaces/types";
import { PLUGIN_NAMES, type PluginName } from "../plugins/names";

const BOOLEAN_FLAG_VALUES = ["true", "false", "1", "0", ""] as const;
const isTrue = (v: string): boolean => v === "true" || v === "1";
const booleanFlag = z.enum(BOOLEAN_FLAG_VALUES, { message: "must be true or false" }).transform(isTrue);

const port = z.coerce
  .number({ message: "must be a port number" })
  .int("must be a whole number")
  .min(1, "must be between 1 and 65535")
  .max(65535, "must be between 1 and 65535");

const pluginList = z.string().transform((raw, ctx): PluginName[] => {
  const names = raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0) {
    ctx.addIssue({ code: "custom", message: `must name at least one plugin (valid: ${PLUGIN_NAMES.join(", ")})` });
    return z.NEVER;
  }
  const unknown = names.filter((n) => !(PLUGIN_NAMES as readonly string[]).includes(n));
  if (unknown.length > 0) {
    ctx.addIssue({
      code: "custom",
      message: `unknown plugin${unknown.length > 1 ? "s" : ""} ${unknown.map((u) => `"${u}"`).join(", ")} (valid: ${PLUGIN_NAMES.join(", ")})`,
    });
    return z.NEVER;
  }
  const duplicates = names.filter((n, i) => names.indexOf(n) !== i);
  if (duplicates.length > 0) {
    ctx.addIssue({ code: "custom", message: `lists "${duplicates[0]}" more than once` });
    return z.NEVER;
  }
  // Keep the canonical order so the composed Ponder config does not depend on how PLUGINS was spelled.
  return PLUGIN_NAMES.filter((p) => names.includes(p));
});

/**
 * Read once when a process starts, so whatever spawns Ponder passes them (scripts/lib/ponder-memory-env.ts) and
 * Ponder or Node reads them before any of our code runs: checked here so that a typo is named instead of ignored
 * (Ponder turns a non-number PONDER_CACHE_BYTES into a cache that holds nothing; glibc ignores a bad MALLOC_ARENA_MAX).
 */
/** How long healing retries an unreachable label source by default (LABELS_RETRY_BUDGET_MS); the healer's default too. */
export const DEFAULT_LABELS_RETRY_BUDGET_MS = 120_000;

export const processTuningSchema = z.object({
  PONDER_CACHE_BYTES: z.coerce
    .number({ message: "must be a number of bytes, e.g. 268435456 (256 MiB)" })
    .int("must be a whole number of bytes")
    .min(1_048_576, "must be at least 1048576 (1 MiB)")
    .optional(),
  MALLOC_ARENA_MAX: z.coerce
    .number({ message: "must be a number of malloc arenas (1 or more)" })
    .int("must be a whole number of arenas")
    .min(1, "must be 1 or more")
    .optional(),
  MALLOC_MMAP_THRESHOLD_: z.coerce
    .number({ message: "must be a number of bytes" })
    .int("must be a whole number of bytes")
    .min(0, "must be 0 or more bytes")
    .optional(),
  NODE_OPTIONS: z
    .string()
    .refine((v) => [...v.matchAll(/--max-(?:old|semi)-space-size=(\S*)/g)].every((m) => /^\d+$/.test(m[1]!)), {
      message: "--max-old-space-size and --max-semi-space-size take a number of MiB, e.g. --max-old-space-size=4096",
    })
    .optional(),
});

/** The environment variables the indexer reads; `.env.example` documents each one. */
export const envSchema = processTuningSchema.extend({
  NAMESPACE: z.enum(NAMESPACE_NAMES, { message: `must be one of ${NAMESPACE_NAMES.join(", ")}` }).default("devnet"),
  /** Unset: the namespace's default plugins (defaultPluginsFor in src/plugins/requirements.ts). */
  PLUGINS: pluginList.optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// connection string")
    .optional(),
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, "must be a lowercase SQL identifier (letters, digits, underscore)")
    .default("nameindex"),
  PGLITE_DIRECTORY: z.string().min(1).default(".ponder/pglite"),
  LABELS_SERVICE_URL: z.string().url("must be a URL such as http://127.0.0.1:3223").optional(),
  LABELS_DB: z.string().min(1).optional(),
  LABEL_SET_ID: z
    .string()
    .regex(/^[a-z-]{1,50}$/, "must be 1-50 characters of a-z and '-'")
    .optional(),
  LABEL_SET_VERSION: z.coerce
    .number({ message: "must be a non-negative integer" })
    .int("must be a non-negative integer")
    .nonnegative("must be a non-negative integer")
    .optional(),
  LABELS_RETRY_BUDGET_MS: z.coerce
    .number({ message: "must be a number of milliseconds" })
    .int("must be a whole number of milliseconds")
    .min(1_000, "must be at least 1000 (ms)")
    .default(DEFAULT_LABELS_RETRY_BUDGET_MS),
  SUBGRAPH_COMPAT: booleanFlag.default("false"),
  TOKENSCOPE_SALES: booleanFlag.default("true"),
  RESOLVER_READS: booleanFlag.default("true"),
  // Diagnostics and benchmarks only: every handler a no-op (bench:index's floor; `log`: each handler only writes its
  // log's `indexed_log` row, the floor plus one plain insert per log), and the tables left unanalyzed.
  NAMEINDEX_NOOP_HANDLERS: z
    .enum([...BOOLEAN_FLAG_VALUES, "log"], { message: "must be true, false or log" })
    .default("false")
    .transform((v): boolean | "log" => (v === "log" ? "log" : isTrue(v))),
  NAMEINDEX_ANALYZE: booleanFlag.optional(),
  /** The backfill's insert-only rows through the write-behind store (src/plugins/shared/write-behind/); false: Ponder's store. */
  NAMEINDEX_WRITE_BEHIND: booleanFlag.default("true"),
  /** The live entity tables too (write-behind/README.md); false leaves them to Ponder's store. */
  NAMEINDEX_WRITE_BEHIND_LIVE: booleanFlag.default("true"),
  /** On PostgreSQL, a batch's rows written in the next batch's transaction while its handlers run (write-behind/README.md). */
  NAMEINDEX_WRITE_BEHIND_PIPELINE: booleanFlag.default("true"),
  /**
   * The bound on the live rows the write-behind store holds between batches, in bytes (estimated as Ponder does). 128
   * MiB keeps a 50,000-name backfill's peak RSS under 1 GiB on PostgreSQL and PGlite; 256 MiB cost ~100 MiB more for
   * a few percent of speed (docs/benchmarks.md, "The bound at 128 MiB").
   */
  NAMEINDEX_WRITE_BEHIND_BYTES: z.coerce
    .number({ message: "must be a whole number of bytes (at least 0)" })
    .int("must be a whole number of bytes (at least 0)")
    .min(0, "must be a whole number of bytes (at least 0)")
    .default(128 * 1024 * 1024),
  /**
   * The nice value of V8's helper threads (garbage collection, background compiles) in the indexer's process: 1–19
   * lower their priority below the main thread's, which runs the handlers; 0 (the default) leaves them as the system
   * made them (src/runtime/gc-helper-priority.ts). Linux only.
   */
  NAMEINDEX_GC_HELPER_NICE: z.coerce
    .number({ message: "must be a whole number from 0 to 19" })
    .int("must be a whole number from 0 to 19")
    .min(0, "must be a whole number from 0 to 19")
    .max(19, "must be a whole number from 0 to 19")
    .default(0),
  /** The name NAMEINDEX_ANALYZE had while it applied to PGlite only; still read when NAMEINDEX_ANALYZE is unset. */
  NAMEINDEX_PGLITE_ANALYZE: booleanFlag.optional(),
  /** Read by ponder patch 024 (getLocalSyncGenerator-bounded-interval-logs); validated here, where a bad value is named. */
  PONDER_SYNC_INTERVAL_MAX_LOGS: z.coerce
    .number({ message: "must be a whole number of logs (at least 1)" })
    .int("must be a whole number of logs (at least 1)")
    .min(1, "must be a whole number of logs (at least 1)")
    .optional(),
  /** `all` (every block), `none`, or how many blocks below the head /subgraph answers at (the entity history kept). */
  SUBGRAPH_HISTORY_BLOCKS: z
    .string()
    .default("all")
    .transform((raw, ctx): "all" | "none" | number => {
      if (raw === "all" || raw === "none") return raw;
      const blocks = Number(raw);
      if (/^\d+$/.test(raw) && Number.isSafeInteger(blocks) && blocks >= 1) return blocks;
      ctx.addIssue({ code: "custom", message: "must be `all`, `none` or a whole number of blocks (at least 1)" });
      return z.NEVER;
    }),
  /** With SUBGRAPH_HISTORY_BLOCKS=N: the least seconds between two prunings of the history below the window. */
  NAMEINDEX_HISTORY_PRUNE_SECONDS: z.coerce
    .number({ message: "must be a whole number of seconds" })
    .int("must be a whole number of seconds")
    .min(0, "must be 0 or more seconds")
    .default(600),
  /** A query at a block reads a table with no version above it from the live table (false: from the history). */
  SUBGRAPH_HISTORY_LIVE_TABLES: booleanFlag.default("true"),
  /**
   * Requests per second the RPC providers take, from the start (Ponder otherwise starts every chain at 20 and ramps
   * up 5 % at a time; patch createRpc-initial-rps). Default: Ponder's 20, or 500 on the local devnet.
   */
  RPC_REQUESTS_PER_SECOND: z.coerce
    .number({ message: "must be a whole number of requests per second" })
    .int("must be a whole number of requests per second")
    .min(1, "must be at least 1 request per second")
    .max(500, "must be at most 500 (Ponder's ceiling)")
    .optional(),
  SUBGRAPH_QUERY_CACHE_MB: z.coerce
    .number({ message: "must be a number of megabytes (0 turns the cache off)" })
    .int("must be a whole number of megabytes")
    .min(0, "must be 0 (off) or more megabytes")
    .max(65_536, "must be at most 65536 (MB)")
    .default(64),
  DEVNET_MANIFEST: z.string().min(1).default(".devnet/manifest.json"),
  /** A replacement for src/namespaces/datasources.json (addresses and start blocks kept as data, e.g. sepolia-v2's). */
  NAMESPACE_DATASOURCES_FILE: z.string().min(1).optional(),
  PUBLIC_API_URL: z.string().url("must be the URL clients use to reach this API").optional(),
  INDEXER_URL: z.string().url("must be the indexer's URL, e.g. http://10.0.0.5:42069").optional(),
  PORT: port.default(42069),
  LABELS_PORT: port.default(3223),
});

export type Env = z.infer<typeof envSchema>;

/** `RPC_URL_<chainId>` and `END_BLOCK_<chainId>` are keyed by chain id, so they are read by prefix. */
export function readPerChainVariables(env: Record<string, string | undefined>, prefix: string): Map<number, string> {
  const found = new Map<number, string>();
  for (const [key, value] of Object.entries(env)) {
    const match = key.match(new RegExp(`^${prefix}(\\d+)$`));
    if (match && value) found.set(Number(match[1]), value);
  }
  return found;
}
