import { describe, expect, it } from "vitest";
import { importEdges } from "./import-graph";

/*
 * docs/architecture.md's import rules ("The layout: what each folder holds, and which way imports run"), each as a
 * check over src/'s imports. An import a rule forbids fails here, naming the file and what it imports; an exception
 * the map states is listed beside its rule, and is the map's words too. Change the two together.
 */

type Edge = { from: string; to: string };

/** The folders of src/ in dependency order: each imports only the ones before it (src/index.ts is the indexing entry). */
const LAYERS = ["namespaces", "config", "lib", "runtime", "plugins", "indexing", "api"] as const;

const layerOf = (path: string): number => {
  const folder = path === "src/index.ts" ? "indexing" : path.split("/")[1];
  return LAYERS.indexOf(folder as (typeof LAYERS)[number]);
};

/** `src/plugins/<plugin>/…` → the plugin; the files beside the plugins (compose.ts, …) and shared/ are none. */
const pluginOf = (path: string): string | undefined => {
  const m = /^src\/plugins\/([^/]+)\//.exec(path);
  return m && m[1] !== "shared" ? m[1] : undefined;
};

/** `src/api/<family>/…` → the route family; shared/ and server/ are not families. */
const familyOf = (path: string): string | undefined => {
  const m = /^src\/api\/([^/]+)\//.exec(path);
  return m && m[1] !== "shared" && m[1] !== "server" ? m[1] : undefined;
};

const inSource = (e: Edge) => e.to.startsWith("src/");

/** Each rule: the imports it forbids, and its stated exceptions (`from → to` path prefixes). */
const RULES: { rule: string; breaks: (e: Edge) => boolean; except?: [string, string][] }[] = [
  {
    rule: "a folder of src/ imports only the folders before it (namespaces, config, lib, runtime, plugins, indexing, api)",
    breaks: (e) => inSource(e) && layerOf(e.to) > layerOf(e.from),
    // config names the plugins (a leaf list) and asks their own checks of a namespace.
    except: [
      ["src/config/", "src/plugins/names.ts"],
      ["src/config/app-config.ts", "src/plugins/index.ts"],
      ["src/config/app-config.ts", "src/plugins/requirements.ts"],
    ],
  },
  {
    rule: "config/types.ts imports only two leaf types",
    breaks: (e) =>
      e.from === "src/config/types.ts" && e.to !== "src/namespaces/types.ts" && e.to !== "src/plugins/names.ts",
  },
  {
    rule: "the API imports of src/plugins/ only its public modules (compose.ts, requirements.ts)",
    breaks: (e) =>
      e.from.startsWith("src/api/") &&
      e.to.startsWith("src/plugins/") &&
      e.to !== "src/plugins/compose.ts" &&
      e.to !== "src/plugins/requirements.ts",
  },
  {
    rule: "a plugin never imports a sibling plugin",
    breaks: (e) =>
      pluginOf(e.from) !== undefined && pluginOf(e.to) !== undefined && pluginOf(e.from) !== pluginOf(e.to),
  },
  {
    rule: "src/plugins/shared/ imports no plugin",
    breaks: (e) => e.from.startsWith("src/plugins/shared/") && pluginOf(e.to) !== undefined,
  },
  {
    rule: "a route family never imports a sibling family",
    breaks: (e) =>
      familyOf(e.from) !== undefined && familyOf(e.to) !== undefined && familyOf(e.from) !== familyOf(e.to),
    // /openapi.json describes every REST route from the request schemas their families parse with.
    except: [["src/api/openapi/", "src/api/"]],
  },
  {
    rule: "src/api/shared/ imports no route family and no server/ file",
    breaks: (e) =>
      e.from.startsWith("src/api/shared/") && (familyOf(e.to) !== undefined || e.to.startsWith("src/api/server/")),
  },
  {
    rule: "only src/api/index.ts imports src/api/server/",
    breaks: (e) =>
      e.to.startsWith("src/api/server/") && !e.from.startsWith("src/api/server/") && e.from !== "src/api/index.ts",
  },
  {
    rule: "src/api/server/ imports no route family",
    breaks: (e) => e.from.startsWith("src/api/server/") && familyOf(e.to) !== undefined,
    // The fast path answers /subgraph's POSTs before Hono, with the family's own handler.
    except: [["src/api/server/node-fast-path.ts", "src/api/subgraph/index.ts"]],
  },
  {
    rule: "nothing imports src/api/index.ts (Ponder's API entry)",
    breaks: (e) => e.to === "src/api/index.ts",
  },
  {
    rule: "src/ imports, outside src/, only ponder.schema.ts, abis/ and labels-service/src/ (keccak, labelhash)",
    breaks: (e) =>
      !inSource(e) &&
      e.to !== "ponder.schema.ts" &&
      !e.to.startsWith("abis/") &&
      !e.to.startsWith("labels-service/src/"),
  },
];

const excepted = (e: Edge, except: [string, string][] = []) =>
  except.some(([from, to]) => e.from.startsWith(from) && e.to.startsWith(to));

/** Every import a rule forbids, as `rule: from → to`. */
function brokenRules(edges: Edge[]): string[] {
  return RULES.flatMap(({ rule, breaks, except }) =>
    edges.filter((e) => breaks(e) && !excepted(e, except)).map((e) => `${rule}: ${e.from} → ${e.to}`),
  );
}

describe("src/ imports follow docs/architecture.md's rules", () => {
  const edges = importEdges();

  it("reads the imports it checks (the scan is not vacuous)", () => {
    expect(edges.length).toBeGreaterThan(500);
    for (const layer of LAYERS) expect(edges.some((e) => e.from.startsWith(`src/${layer}/`))).toBe(true);
  });

  it("every rule catches an import that breaks it", () => {
    const breaking: Edge[] = [
      { from: "src/lib/rpc-transport.ts", to: "src/runtime/metrics.ts" },
      { from: "src/config/types.ts", to: "src/namespaces/index.ts" },
      { from: "src/api/omnigraph/model.ts", to: "src/plugins/ensv2/lib/ids.ts" },
      { from: "src/plugins/ensv2/lib/x.ts", to: "src/plugins/registrars/lib/pricing.ts" },
      { from: "src/plugins/shared/x.ts", to: "src/plugins/ensv2/plugin.ts" },
      { from: "src/api/omnigraph/context.ts", to: "src/api/resolution/service.ts" },
      { from: "src/api/shared/x.ts", to: "src/api/subgraph/index.ts" },
      { from: "src/api/subgraph/x.ts", to: "src/api/server/pglite-safe-db.ts" },
      { from: "src/api/server/x.ts", to: "src/api/omnigraph/index.ts" },
      { from: "src/api/subgraph/x.ts", to: "src/api/index.ts" },
      { from: "src/lib/x.ts", to: "snapshot/manifest.ts" },
    ];
    expect(breaking.map((e) => brokenRules([e]).length)).toEqual(breaking.map(() => 1));
  });

  it("are kept by every import", () => {
    expect(brokenRules(edges)).toEqual([]);
  });
});
