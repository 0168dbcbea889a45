/** Every plugin an operator can activate with PLUGINS, in the order they compose the Ponder config. */
export const PLUGIN_NAMES = [
  "subgraph",
  "basenames",
  "lineanames",
  "threedns",
  "protocol-acceleration",
  "registrars",
  "tokenscope",
] as const;
export type PluginName = (typeof PLUGIN_NAMES)[number];
