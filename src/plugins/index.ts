import { basenamesPlugin } from "./basenames/plugin";
import type { PluginDefinition } from "./define";
import { ensv2Plugin } from "./ensv2/plugin";
import { lineanamesPlugin } from "./lineanames/plugin";
import type { PluginName } from "./names";
import { protocolAccelerationPlugin } from "./protocol-acceleration/plugin";
import { registrarsPlugin } from "./registrars/plugin";
import { subgraphPlugin } from "./subgraph/plugin";
import { threednsPlugin } from "./threedns/plugin";
import { tokenscopePlugin } from "./tokenscope/plugin";

export const PLUGINS = {
  subgraph: subgraphPlugin,
  basenames: basenamesPlugin,
  lineanames: lineanamesPlugin,
  threedns: threednsPlugin,
  "protocol-acceleration": protocolAccelerationPlugin,
  registrars: registrarsPlugin,
  tokenscope: tokenscopePlugin,
  ensv2: ensv2Plugin,
} as const satisfies Record<PluginName, PluginDefinition>;

export { DEFAULT_PLUGIN_NAMES, PLUGIN_NAMES, type PluginName } from "./names";

/** A plugin's definition as the generic shape that code walking every plugin reads (PLUGINS keeps the literal types). */
export function pluginDefinition(name: PluginName): PluginDefinition {
  return PLUGINS[name];
}
