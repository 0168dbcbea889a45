import type { Namespace } from "../namespaces/types";
import { DEFAULT_PLUGIN_NAMES, type PluginName, pluginDefinition } from ".";

/*
 * The plugins' own checks against a namespace: which datasources and contracts each needs, and the chains their
 * contracts live on. buildConfig (src/config/app-config.ts) reports these problems with the rest of the environment's.
 */

/** What the namespace lacks for the active plugins, one readable problem per missing datasource or contract. */
export function pluginRequirementProblems(namespace: Namespace, plugins: readonly PluginName[]): string[] {
  const problems: string[] = [];
  for (const pluginName of plugins) {
    const plugin = pluginDefinition(pluginName);
    for (const ds of plugin.requiredDatasources) {
      if (!namespace.datasources[ds]) {
        problems.push(
          `PLUGINS: plugin "${pluginName}" needs datasource "${ds}", which namespace "${namespace.name}" lacks`,
        );
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
  return problems;
}

/** The chains that the active plugins' contracts live on, each once. */
export function chainsOf(namespace: Namespace, plugins: readonly PluginName[]): { id: number; name: string }[] {
  const chains = new Map<number, { id: number; name: string }>();
  for (const pluginName of plugins) {
    for (const c of pluginDefinition(pluginName).contracts) {
      const ds = namespace.datasources[c.datasource];
      if (ds?.contracts[c.contract]) chains.set(ds.chain.id, ds.chain);
    }
  }
  return [...chains.values()].sort((a, b) => a.id - b.id);
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
