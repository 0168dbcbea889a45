/** Every plugin an operator can activate with PLUGINS, in the order they compose the Ponder config. */
export const PLUGIN_NAMES = [
  "subgraph",
  "basenames",
  "lineanames",
  "threedns",
  "protocol-acceleration",
  "registrars",
  "tokenscope",
  "ensv2",
] as const;
export type PluginName = (typeof PLUGIN_NAMES)[number];

/**
 * Plugins an operator turns on by naming them in PLUGINS: `ensv2` needs ENSv2 contracts, which only the devnet has
 * (mainnet and sepolia have no deployment this plugin knows).
 */
const OPT_IN_PLUGINS: readonly PluginName[] = ["ensv2"];

/** What PLUGINS defaults to: every plugin but the opt-in ones. */
export const DEFAULT_PLUGIN_NAMES: readonly PluginName[] = PLUGIN_NAMES.filter((p) => !OPT_IN_PLUGINS.includes(p));
