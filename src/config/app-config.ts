import { loadNamespace, type Namespace } from "../namespaces";
import { DEFAULT_PLUGIN_NAMES, pluginDefinition, type PluginName } from "../plugins";
import { envSchema, readPerChainVariables } from "./env-schema";

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
  /** NAMEINDEX_NOOP_HANDLERS: register every handler as a no-op (bench:index's floor; never for a real index). */
  noopHandlers: boolean;
  /** Whether tokenscope indexes Seaport sales (TOKENSCOPE_SALES): on mainnet that means fetching every Seaport fill. */
  tokenscopeSales: boolean;
  /** NAMEINDEX_ANALYZE (formerly NAMEINDEX_PGLITE_ANALYZE): ANALYZE the index's tables once the backfill is done (default true). */
  analyzeTables: boolean;
  port: number;
  /** The URL clients reach this API at, when it differs from what a request arrived on (behind a proxy). */
  publicApiUrl: string | undefined;
  labelsPort: number;
  /** Where the writing indexer answers (its /metrics refine the indexing status); API replicas point it at the indexer. */
  indexerUrl: string;
  devnetManifestPath: string;
}

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
    namespace = loadNamespace(e.NAMESPACE, { devnetManifestPath: e.DEVNET_MANIFEST, datasourcesFile: e.NAMESPACE_DATASOURCES_FILE });
  } catch (error) {
    problems.push(`${e.NAMESPACE === "devnet" ? "DEVNET_MANIFEST" : "NAMESPACE_DATASOURCES_FILE"}: ${(error as Error).message}`);
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
    checkPluginDatasources(namespace, plugins, problems);
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
      if (!/^\d+$/.test(raw) || Number(raw) < 1) problems.push(`ETH_GETLOGS_BLOCK_RANGE_${chainId}: must be a number of blocks, 1 or more`);
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
    noopHandlers: e.NAMEINDEX_NOOP_HANDLERS,
    tokenscopeSales: e.TOKENSCOPE_SALES,
    analyzeTables: e.NAMEINDEX_ANALYZE ?? e.NAMEINDEX_PGLITE_ANALYZE ?? true,
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

/** Whether the namespace has every datasource the plugin needs. */
function canRun(namespace: Namespace, pluginName: PluginName): boolean {
  const plugin = pluginDefinition(pluginName);
  return (
    plugin.requiredDatasources.every((ds) => namespace.datasources[ds]) &&
    (!plugin.requiresOneOf || plugin.requiresOneOf.some((ds) => namespace.datasources[ds]))
  );
}

/**
 * PLUGINS unset: the default plugins the namespace has datasources for (sepolia-v2 has no Basenames, Lineanames or
 * 3DNS), and ensv2 where a public namespace lists an ENSv2 deployment, so that adding one to the datasources file is
 * all it takes. On the devnet ensv2 stays opt-in: `npm start` adds it, tests name their plugins.
 */
export function defaultPluginsFor(namespace: Namespace): PluginName[] {
  const withEnsv2 = namespace.name !== "devnet" && namespace.datasources.ensv2 !== undefined;
  return [...DEFAULT_PLUGIN_NAMES, ...(withEnsv2 ? (["ensv2"] as const) : [])].filter((p) => canRun(namespace, p));
}

function checkPluginDatasources(namespace: Namespace, plugins: PluginName[], problems: string[]): void {
  for (const pluginName of plugins) {
    const plugin = pluginDefinition(pluginName);
    for (const ds of plugin.requiredDatasources) {
      if (!namespace.datasources[ds]) {
        problems.push(`PLUGINS: plugin "${pluginName}" needs datasource "${ds}", which namespace "${namespace.name}" lacks`);
      }
    }
    if (plugin.requiresOneOf && !plugin.requiresOneOf.some((ds) => namespace.datasources[ds])) {
      problems.push(
        `PLUGINS: plugin "${pluginName}" needs one of the datasources ${plugin.requiresOneOf.join(", ")}; namespace "${namespace.name}" has none`,
      );
    }
    for (const c of plugin.contracts) {
      const ds = namespace.datasources[c.datasource];
      if (ds && !c.optional && !ds.contracts[c.contract]) {
        problems.push(
          `PLUGINS: plugin "${pluginName}" needs contract ${c.contract} of datasource "${c.datasource}", which namespace "${namespace.name}" lacks`,
        );
      }
    }
  }
}

/** The chains that the active plugins' contracts live on, each once. */
export function chainsOf(namespace: Namespace, plugins: PluginName[]): { id: number; name: string }[] {
  const chains = new Map<number, { id: number; name: string }>();
  for (const pluginName of plugins) {
    for (const c of pluginDefinition(pluginName).contracts) {
      const ds = namespace.datasources[c.datasource];
      if (ds?.contracts[c.contract]) chains.set(ds.chain.id, ds.chain);
    }
  }
  return [...chains.values()].sort((a, b) => a.id - b.id);
}
