import { loadNamespace, type Namespace } from "../namespaces";
import { DEFAULT_PLUGIN_NAMES } from "../plugins";
import { chainsOf, defaultPluginsFor, pluginRequirementProblems } from "../plugins/requirements";
import { envSchema, readPerChainVariables } from "./env-schema";
import type { AppConfig, LabelSetPin } from "./types";

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Reads and checks the environment once. Every problem is reported at once, with the variable it concerns. */
export function buildConfig(env: Record<string, string | undefined>): AppConfig {
  // An empty variable (FOO= in a .env file) means "not set".
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  const e = parsed.data;
  const problems: string[] = [];

  const isSubgraphCompatible = e.SUBGRAPH_COMPAT;
  const labelSet = resolveLabelSet(e, isSubgraphCompatible, problems);

  let namespace: Namespace | undefined;
  try {
    namespace = loadNamespace(e.NAMESPACE, {
      devnetManifestPath: e.DEVNET_MANIFEST,
      datasourcesFile: e.NAMESPACE_DATASOURCES_FILE,
    });
  } catch (error) {
    problems.push(
      `${e.NAMESPACE === "devnet" ? "DEVNET_MANIFEST" : "NAMESPACE_DATASOURCES_FILE"}: ${(error as Error).message}`,
    );
  }
  const plugins = e.PLUGINS ?? (namespace ? defaultPluginsFor(namespace) : [...DEFAULT_PLUGIN_NAMES]);

  if (isSubgraphCompatible && (plugins.length !== 1 || plugins[0] !== "subgraph")) {
    problems.push(
      `SUBGRAPH_COMPAT: subgraph-compatible mode runs only the "subgraph" plugin, but PLUGINS is "${plugins.join(",")}" (set PLUGINS=subgraph)`,
    );
  }

  const rpcUrls = new Map<number, string>();
  const endBlocks = new Map<number, number>();
  const getLogsBlockRanges = new Map<number, number>();
  if (namespace) {
    problems.push(...pluginRequirementProblems(namespace, plugins));
    const explicitRpc = readPerChainVariables(env, "RPC_URL_");
    for (const chain of chainsOf(namespace, plugins)) {
      const url = explicitRpc.get(chain.id) ?? namespace.defaultRpcUrls[chain.id];
      if (!url) {
        problems.push(`RPC_URL_${chain.id}: missing; the active plugins index chain ${chain.id} (${chain.name})`);
      } else if (!/^(https?|wss?):\/\//.test(url)) {
        problems.push(`RPC_URL_${chain.id}: must be an http(s):// or ws(s):// URL`);
      } else {
        rpcUrls.set(chain.id, url);
      }
    }
    for (const [chainId, raw] of readPerChainVariables(env, "END_BLOCK_")) {
      if (!/^\d+$/.test(raw)) problems.push(`END_BLOCK_${chainId}: must be a block number`);
      else endBlocks.set(chainId, Number(raw));
    }
    for (const [chainId, raw] of readPerChainVariables(env, "ETH_GETLOGS_BLOCK_RANGE_")) {
      if (!/^\d+$/.test(raw) || Number(raw) < 1)
        problems.push(`ETH_GETLOGS_BLOCK_RANGE_${chainId}: must be a number of blocks, 1 or more`);
      else getLogsBlockRanges.set(chainId, Number(raw));
    }
  }

  if (problems.length > 0 || !namespace) throw new ConfigError(problems);

  return {
    namespace,
    plugins,
    rpcUrls,
    endBlocks,
    getLogsBlockRanges,
    database: e.DATABASE_URL
      ? { kind: "postgres", connectionString: e.DATABASE_URL }
      : { kind: "pglite", directory: e.PGLITE_DIRECTORY },
    databaseSchema: e.DATABASE_SCHEMA,
    labelsServiceUrl: e.LABELS_SERVICE_URL ?? `http://127.0.0.1:${e.LABELS_PORT}`,
    labelsDbPath: e.LABELS_DB,
    labelSet,
    labelsRetryBudgetMs: e.LABELS_RETRY_BUDGET_MS,
    isSubgraphCompatible,
    subgraphQueryCacheBytes: e.SUBGRAPH_QUERY_CACHE_MB * 1024 * 1024,
    subgraphHistoryBlocks:
      e.SUBGRAPH_HISTORY_BLOCKS === "all" ? null : e.SUBGRAPH_HISTORY_BLOCKS === "none" ? 0 : e.SUBGRAPH_HISTORY_BLOCKS,
    historyPruneSeconds: e.NAMEINDEX_HISTORY_PRUNE_SECONDS,
    historyLiveTables: e.SUBGRAPH_HISTORY_LIVE_TABLES,
    // A local devnet's anvil takes what it is sent.
    rpcRequestsPerSecond: e.RPC_REQUESTS_PER_SECOND ?? (namespace.name === "devnet" ? 500 : undefined),
    noopHandlers: e.NAMEINDEX_NOOP_HANDLERS,
    tokenscopeSales: e.TOKENSCOPE_SALES,
    resolverReads: e.RESOLVER_READS,
    analyzeTables: e.NAMEINDEX_ANALYZE ?? e.NAMEINDEX_PGLITE_ANALYZE ?? true,
    writeBehind: e.NAMEINDEX_WRITE_BEHIND,
    writeBehindLive: e.NAMEINDEX_WRITE_BEHIND && e.NAMEINDEX_WRITE_BEHIND_LIVE,
    writeBehindBytes: e.NAMEINDEX_WRITE_BEHIND_BYTES,
    gcHelperNice: e.NAMEINDEX_GC_HELPER_NICE,
    writeBehindPipeline: e.NAMEINDEX_WRITE_BEHIND && e.NAMEINDEX_WRITE_BEHIND_LIVE && e.NAMEINDEX_WRITE_BEHIND_PIPELINE,
    port: e.PORT,
    publicApiUrl: e.PUBLIC_API_URL,
    labelsPort: e.LABELS_PORT,
    indexerUrl: e.INDEXER_URL ?? `http://127.0.0.1:${e.PORT}`,
    devnetManifestPath: e.DEVNET_MANIFEST,
  };
}

function resolveLabelSet(
  e: { LABEL_SET_ID?: string; LABEL_SET_VERSION?: number; NAMESPACE: string },
  isSubgraphCompatible: boolean,
  problems: string[],
): LabelSetPin {
  if (e.LABEL_SET_VERSION !== undefined && e.LABEL_SET_ID === undefined) {
    problems.push("LABEL_SET_VERSION: set LABEL_SET_ID too; a version means nothing without its label set");
  }
  if (isSubgraphCompatible) {
    // The subgraph healed with the original rainbow table only; anything else would name domains differently.
    const pin = { labelSetId: e.LABEL_SET_ID ?? "subgraph", labelSetVersion: e.LABEL_SET_VERSION ?? 0 };
    if (pin.labelSetId !== "subgraph" || pin.labelSetVersion !== 0) {
      problems.push(
        `LABEL_SET_ID/LABEL_SET_VERSION: subgraph-compatible mode heals with label set "subgraph" version 0, not "${pin.labelSetId}" version ${pin.labelSetVersion}`,
      );
    }
    return pin;
  }
  const defaultId = e.NAMESPACE === "devnet" ? "demo" : "subgraph";
  return { labelSetId: e.LABEL_SET_ID ?? defaultId, labelSetVersion: e.LABEL_SET_VERSION ?? 0 };
}
