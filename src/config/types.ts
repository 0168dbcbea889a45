import type { Namespace } from "../namespaces/types";
import type { PluginName } from "../plugins/names";

/*
 * The configuration's shape, apart from the code that builds it (app-config.ts): plugin definitions read this type
 * (a contract an operator may switch off), and buildConfig reads the plugin definitions, so the type must not import
 * the builder. Only type imports of two leaf modules (the namespace shape, the plugin names).
 */

export interface LabelSetPin {
  labelSetId: string;
  labelSetVersion: number;
}

export interface AppConfig {
  namespace: Namespace;
  plugins: PluginName[];
  /** Chain id → RPC URL, for exactly the chains the active plugins index. */
  rpcUrls: Map<number, string>;
  /** Chain id → last block to index (`END_BLOCK_<chainId>`); absent means follow the chain forever. */
  endBlocks: Map<number, number>;
  /**
   * Chain id → the widest block range of one eth_getLogs (`ETH_GETLOGS_BLOCK_RANGE_<chainId>`), for a provider whose
   * range refusal Ponder cannot read; absent means Ponder learns the range from the provider's errors.
   */
  getLogsBlockRanges: Map<number, number>;
  database: { kind: "pglite"; directory: string } | { kind: "postgres"; connectionString: string };
  databaseSchema: string;
  labelsServiceUrl: string;
  /** A local label SQLite file the indexer may read directly instead of asking the service over HTTP. */
  labelsDbPath: string | undefined;
  labelSet: LabelSetPin;
  /** How long healing retries an unreachable label source before it stops indexing (LABELS_RETRY_BUDGET_MS). */
  labelsRetryBudgetMs: number;
  isSubgraphCompatible: boolean;
  /** Bytes the /subgraph query-result cache may hold (SUBGRAPH_QUERY_CACHE_MB); 0 is off. */
  subgraphQueryCacheBytes: number;
  /**
   * SUBGRAPH_HISTORY_BLOCKS: how many blocks below the indexed head /subgraph answers `block:` queries at; the
   * indexer prunes entity versions older than that. null (`all`, the default): every block since the start. 0
   * (`none`): no history is written, and /subgraph answers at the head only.
   */
  subgraphHistoryBlocks: number | null;
  /** NAMEINDEX_HISTORY_PRUNE_SECONDS: the least seconds between two prunings of that history (default 600). */
  historyPruneSeconds: number;
  /**
   * SUBGRAPH_HISTORY_LIVE_TABLES: /subgraph at a block reads a table with no version above the block from its live
   * table, as at the head (default true); false reads the history always (the same answers, to check them).
   */
  historyLiveTables: boolean;
  /** RPC_REQUESTS_PER_SECOND: the rate Ponder starts each chain's RPC at (undefined: Ponder's own 20). */
  rpcRequestsPerSecond: number | undefined;
  /**
   * NAMEINDEX_NOOP_HANDLERS: register every handler as a no-op (bench:index's floor), or (`log`) as one that only
   * writes its log's `indexed_log` row. Never for a real index.
   */
  noopHandlers: boolean | "log";
  /** Whether tokenscope indexes Seaport sales (TOKENSCOPE_SALES): on mainnet that means fetching every Seaport fill. */
  tokenscopeSales: boolean;
  /**
   * RESOLVER_READS: whether protocol-acceleration reads, at the event's block, the values that value-less TextChanged
   * and ABIChanged do not carry (needs an archive RPC). false keeps those keys without values: resolution reads them
   * on chain.
   */
  resolverReads: boolean;
  /** NAMEINDEX_ANALYZE (formerly NAMEINDEX_PGLITE_ANALYZE): ANALYZE the index's tables once the backfill is done (default true). */
  analyzeTables: boolean;
  /**
   * NAMEINDEX_WRITE_BEHIND: during the backfill, the rows only ever inserted (logs, the subgraph's events, history
   * versions) are held by the app and written with one COPY per table and batch (default true); false sends them
   * through Ponder's store, as realtime does. The rows are the same either way.
   */
  writeBehind: boolean;
  /**
   * NAMEINDEX_WRITE_BEHIND_LIVE (with NAMEINDEX_WRITE_BEHIND): the live entity tables too are read and written by the
   * write-behind store during the backfill, the rows held between batches under `writeBehindBytes`
   * (NAMEINDEX_WRITE_BEHIND_BYTES, default 128 MiB).
   */
  writeBehindLive: boolean;
  writeBehindBytes: number;
  /** NAMEINDEX_GC_HELPER_NICE: the nice value of V8's helper threads (0, the default, leaves them alone). */
  gcHelperNice: number;
  /**
   * NAMEINDEX_WRITE_BEHIND_PIPELINE (with the live tables, PostgreSQL only; default true): a batch's rows are written in
   * the next batch's transaction while its handlers run, with the checkpoint of the batch they belong to (graph-node's
   * write queue); false writes each batch's rows in its own transaction.
   */
  writeBehindPipeline: boolean;
  port: number;
  /** The URL clients reach this API at, when it differs from what a request arrived on (behind a proxy). */
  publicApiUrl: string | undefined;
  labelsPort: number;
  /** Where the writing indexer answers (its /metrics refine the indexing status); API replicas point it at the indexer. */
  indexerUrl: string;
  devnetManifestPath: string;
}
