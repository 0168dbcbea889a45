import { describe, expect, it } from "vitest";
import { buildConfig } from "../../src/config";
import { DEFAULT_PLUGIN_NAMES, PLUGIN_NAMES } from "../../src/plugins";
import { composeChains, composeContracts } from "../../src/plugins/compose";
import { ensrootOnly, fullDevnet, problemsOf, writeManifest } from "./fixtures";

const mainnetRpc = {
  RPC_URL_1: "https://eth.example",
  RPC_URL_8453: "https://base.example",
  RPC_URL_59144: "https://linea.example",
  RPC_URL_10: "https://op.example",
  RPC_URL_42161: "https://arbitrum.example",
  RPC_URL_534352: "https://scroll.example",
};

describe("environment validation", () => {
  it("rejects an unknown namespace and lists the valid ones", () => {
    expect(problemsOf({ NAMESPACE: "holesky" })).toEqual([
      "NAMESPACE: must be one of mainnet, sepolia, sepolia-v2, devnet",
    ]);
  });

  it("rejects unknown plugins, naming them and the valid ones", () => {
    const [problem] = problemsOf({ NAMESPACE: "mainnet", PLUGINS: "subgraph,ens-v2,foo", ...mainnetRpc });
    expect(problem).toBe(`PLUGINS: unknown plugins "ens-v2", "foo" (valid: ${PLUGIN_NAMES.join(", ")})`);
  });

  it("rejects a plugin listed twice and an empty list", () => {
    expect(problemsOf({ NAMESPACE: "mainnet", PLUGINS: "subgraph,subgraph", ...mainnetRpc })).toEqual([
      'PLUGINS: lists "subgraph" more than once',
    ]);
    expect(problemsOf({ NAMESPACE: "mainnet", PLUGINS: " , ", ...mainnetRpc })[0]).toMatch(
      /^PLUGINS: must name at least one plugin/,
    );
  });

  it("rejects malformed scalar variables with the variable's name", () => {
    const problems = problemsOf({
      NAMESPACE: "mainnet",
      ...mainnetRpc,
      PORT: "70000",
      LABELS_PORT: "abc",
      DATABASE_URL: "mysql://x",
      DATABASE_SCHEMA: "Bad-Schema",
      SUBGRAPH_COMPAT: "yes",
      LABEL_SET_ID: "Not_Valid",
      LABEL_SET_VERSION: "-1",
      LABELS_SERVICE_URL: "not a url",
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        "PORT: must be between 1 and 65535",
        "LABELS_PORT: must be a port number",
        "DATABASE_URL: must be a postgresql:// connection string",
        "DATABASE_SCHEMA: must be a lowercase SQL identifier (letters, digits, underscore)",
        "SUBGRAPH_COMPAT: must be true or false",
        "LABEL_SET_ID: must be 1-50 characters of a-z and '-'",
        "LABEL_SET_VERSION: must be a non-negative integer",
        "LABELS_SERVICE_URL: must be a URL such as http://127.0.0.1:3223",
      ]),
    );
    expect(problems).toHaveLength(8);
  });

  it("names every chain whose RPC URL is missing", () => {
    const problems = problemsOf({ NAMESPACE: "mainnet", RPC_URL_1: "https://eth.example" });
    expect(problems).toEqual([
      "RPC_URL_10: missing; the active plugins index chain 10 (optimism)",
      "RPC_URL_8453: missing; the active plugins index chain 8453 (base)",
      "RPC_URL_42161: missing; the active plugins index chain 42161 (arbitrum)",
      "RPC_URL_59144: missing; the active plugins index chain 59144 (linea)",
      "RPC_URL_534352: missing; the active plugins index chain 534352 (scroll)",
    ]);
  });

  it("only asks for the chains of the active plugins", () => {
    const config = buildConfig({ NAMESPACE: "mainnet", PLUGINS: "subgraph", RPC_URL_1: "https://eth.example" });
    expect([...config.rpcUrls.keys()]).toEqual([1]);
  });

  it("rejects a non-http RPC URL and a non-numeric end block", () => {
    expect(
      problemsOf({ NAMESPACE: "mainnet", PLUGINS: "subgraph", RPC_URL_1: "ftp://x", END_BLOCK_1: "soon" }),
    ).toEqual(["RPC_URL_1: must be an http(s):// or ws(s):// URL", "END_BLOCK_1: must be a block number"]);
  });

  it("requires LABEL_SET_ID when LABEL_SET_VERSION is set", () => {
    expect(problemsOf({ NAMESPACE: "mainnet", ...mainnetRpc, LABEL_SET_VERSION: "2" })).toEqual([
      "LABEL_SET_VERSION: set LABEL_SET_ID too; a version means nothing without its label set",
    ]);
  });

  it("keeps subgraph-compatible mode to the subgraph plugin and the subgraph label set", () => {
    expect(problemsOf({ NAMESPACE: "mainnet", ...mainnetRpc, SUBGRAPH_COMPAT: "true" })).toEqual([
      `SUBGRAPH_COMPAT: subgraph-compatible mode runs only the "subgraph" plugin, but PLUGINS is "${DEFAULT_PLUGIN_NAMES.join(",")}" (set PLUGINS=subgraph)`,
    ]);
    expect(
      problemsOf({
        NAMESPACE: "mainnet",
        RPC_URL_1: "https://eth.example",
        PLUGINS: "subgraph",
        SUBGRAPH_COMPAT: "true",
        LABEL_SET_ID: "ens-names",
        LABEL_SET_VERSION: "3",
      }),
    ).toEqual([
      'LABEL_SET_ID/LABEL_SET_VERSION: subgraph-compatible mode heals with label set "subgraph" version 0, not "ens-names" version 3',
    ]);
    const config = buildConfig({
      NAMESPACE: "mainnet",
      RPC_URL_1: "https://eth.example",
      PLUGINS: "subgraph",
      SUBGRAPH_COMPAT: "1",
    });
    expect(config.isSubgraphCompatible).toBe(true);
    expect(config.labelSet).toEqual({ labelSetId: "subgraph", labelSetVersion: 0 });
  });

  it("reports a missing devnet manifest with how to make one", () => {
    const [problem] = problemsOf({ NAMESPACE: "devnet", DEVNET_MANIFEST: "/nonexistent/manifest.json" });
    expect(problem).toBe(
      "DEVNET_MANIFEST: Devnet manifest not found at /nonexistent/manifest.json. Start a devnet with `npm run devnet` or point DEVNET_MANIFEST at one.",
    );
  });

  it("names a datasource a plugin needs that the namespace lacks", () => {
    const manifest = writeManifest(ensrootOnly);
    const problems = problemsOf({
      NAMESPACE: "devnet",
      DEVNET_MANIFEST: manifest,
      PLUGINS: "subgraph,basenames,threedns",
    });
    expect(problems).toEqual([
      'PLUGINS: plugin "basenames" needs datasource "basenames", which namespace "devnet" lacks',
      'PLUGINS: plugin "threedns" needs one of the datasources threednsOptimism, threednsBase; namespace "devnet" has none',
    ]);
  });

  it("names a required contract missing from a datasource", () => {
    const { BaseRegistrar: _dropped, ...contracts } = ensrootOnly.ensroot.contracts;
    const manifest = writeManifest({ ensroot: { chainId: 31337, contracts } });
    expect(problemsOf({ NAMESPACE: "devnet", DEVNET_MANIFEST: manifest, PLUGINS: "subgraph" })).toEqual([
      'PLUGINS: plugin "subgraph" needs contract BaseRegistrar of datasource "ensroot", which namespace "devnet" lacks',
    ]);
  });

  it("takes the label healing retry budget in milliseconds, 120 s unless set", () => {
    expect(problemsOf({ NAMESPACE: "mainnet", ...mainnetRpc, LABELS_RETRY_BUDGET_MS: "5s" })).toEqual([
      "LABELS_RETRY_BUDGET_MS: must be a number of milliseconds",
    ]);
    expect(problemsOf({ NAMESPACE: "mainnet", ...mainnetRpc, LABELS_RETRY_BUDGET_MS: "10" })).toEqual([
      "LABELS_RETRY_BUDGET_MS: must be at least 1000 (ms)",
    ]);
    expect(buildConfig({ NAMESPACE: "mainnet", ...mainnetRpc }).labelsRetryBudgetMs).toBe(120_000);
    expect(
      buildConfig({ NAMESPACE: "mainnet", ...mainnetRpc, LABELS_RETRY_BUDGET_MS: "5000" }).labelsRetryBudgetMs,
    ).toBe(5_000);
  });

  it("sizes the /subgraph query cache in megabytes: on by default, 0 turns it off", () => {
    expect(buildConfig({ NAMESPACE: "mainnet", ...mainnetRpc }).subgraphQueryCacheBytes).toBe(64 * 1024 * 1024);
    expect(
      buildConfig({ NAMESPACE: "mainnet", ...mainnetRpc, SUBGRAPH_QUERY_CACHE_MB: "0" }).subgraphQueryCacheBytes,
    ).toBe(0);
    expect(
      buildConfig({ NAMESPACE: "mainnet", ...mainnetRpc, SUBGRAPH_QUERY_CACHE_MB: "8" }).subgraphQueryCacheBytes,
    ).toBe(8 * 1024 * 1024);
    for (const bad of ["-1", "1.5", "lots"]) {
      const [problem] = problemsOf({ NAMESPACE: "mainnet", ...mainnetRpc, SUBGRAPH_QUERY_CACHE_MB: bad });
      expect(problem).toMatch(/^SUBGRAPH_QUERY_CACHE_MB: must be/);
    }
  });

  it("keeps all entity history by default, the last N blocks, or none (SUBGRAPH_HISTORY_BLOCKS)", () => {
    const base = { NAMESPACE: "mainnet", ...mainnetRpc };
    expect(buildConfig(base).subgraphHistoryBlocks).toBeNull();
    expect(buildConfig({ ...base, SUBGRAPH_HISTORY_BLOCKS: "all" }).subgraphHistoryBlocks).toBeNull();
    expect(buildConfig({ ...base, SUBGRAPH_HISTORY_BLOCKS: "1000" }).subgraphHistoryBlocks).toBe(1000);
    expect(buildConfig({ ...base, SUBGRAPH_HISTORY_BLOCKS: "none" }).subgraphHistoryBlocks).toBe(0);
    for (const bad of ["0", "-1", "2.5", "off"]) {
      const [problem] = problemsOf({ ...base, SUBGRAPH_HISTORY_BLOCKS: bad });
      expect(problem).toMatch(/^SUBGRAPH_HISTORY_BLOCKS: must be `all`, `none` or a whole number of blocks/);
    }
  });

  it("refuses a PONDER_SYNC_INTERVAL_MAX_LOGS (read by ponder patch 024) that is not a whole number of logs >= 1", () => {
    expect(() =>
      buildConfig({ NAMESPACE: "mainnet", ...mainnetRpc, PONDER_SYNC_INTERVAL_MAX_LOGS: "5000" }),
    ).not.toThrow();
    for (const bad of ["0", "-5", "2.5", "many"]) {
      expect(problemsOf({ NAMESPACE: "mainnet", ...mainnetRpc, PONDER_SYNC_INTERVAL_MAX_LOGS: bad })).toEqual([
        "PONDER_SYNC_INTERVAL_MAX_LOGS: must be a whole number of logs (at least 1)",
      ]);
    }
  });

  it("reads NAMEINDEX_GC_HELPER_NICE as a nice value from 0 to 19, 0 by default", () => {
    const base = { NAMESPACE: "mainnet", ...mainnetRpc };
    expect(buildConfig(base).gcHelperNice).toBe(0);
    expect(buildConfig({ ...base, NAMEINDEX_GC_HELPER_NICE: "10" }).gcHelperNice).toBe(10);
    expect(buildConfig({ ...base, NAMEINDEX_GC_HELPER_NICE: "19" }).gcHelperNice).toBe(19);
    for (const bad of ["20", "-1", "2.5", "low"]) {
      expect(problemsOf({ ...base, NAMEINDEX_GC_HELPER_NICE: bad })).toEqual([
        "NAMEINDEX_GC_HELPER_NICE: must be a whole number from 0 to 19",
      ]);
    }
  });

  it("reads the diagnostic switches (no-op handlers, PGlite ANALYZE) as validated flags", () => {
    const base = { NAMESPACE: "mainnet", ...mainnetRpc };
    expect(buildConfig(base)).toMatchObject({ noopHandlers: false, analyzeTables: true });
    expect(buildConfig({ ...base, NAMEINDEX_ANALYZE: "false" })).toMatchObject({ analyzeTables: false });
    // The former name still counts, and the new one wins over it.
    expect(buildConfig({ ...base, NAMEINDEX_ANALYZE: "true", NAMEINDEX_PGLITE_ANALYZE: "false" })).toMatchObject({
      analyzeTables: true,
    });
    expect(buildConfig({ ...base, NAMEINDEX_NOOP_HANDLERS: "true", NAMEINDEX_PGLITE_ANALYZE: "false" })).toMatchObject({
      noopHandlers: true,
      analyzeTables: false,
    });
    expect(buildConfig({ ...base, NAMEINDEX_NOOP_HANDLERS: "log" })).toMatchObject({ noopHandlers: "log" });
    const [problem] = problemsOf({ ...base, NAMEINDEX_NOOP_HANDLERS: "yes" });
    expect(problem).toMatch(/^NAMEINDEX_NOOP_HANDLERS: must be true, false or log/);
  });

  it("treats empty variables as unset and applies the documented defaults", () => {
    const manifest = writeManifest(fullDevnet);
    const config = buildConfig({ DEVNET_MANIFEST: manifest, PORT: "", DATABASE_URL: "" });
    expect(config.namespace.name).toBe("devnet");
    expect(config.plugins).toEqual([...DEFAULT_PLUGIN_NAMES]);
    expect(config.port).toBe(42069);
    expect(config.labelsPort).toBe(3223);
    expect(config.labelsServiceUrl).toBe("http://127.0.0.1:3223");
    expect(config.database).toEqual({ kind: "pglite", directory: ".ponder/pglite" });
    expect(config.databaseSchema).toBe("nameindex");
    expect(config.labelSet).toEqual({ labelSetId: "demo", labelSetVersion: 0 });
    expect(config.isSubgraphCompatible).toBe(false);
    expect(Object.fromEntries(config.rpcUrls)).toEqual({
      31337: "http://127.0.0.1:40001",
      31338: "http://127.0.0.1:40002",
      31339: "http://127.0.0.1:40003",
    });
  });

  it("lets RPC_URL_<chainId> override the manifest and DATABASE_URL select PostgreSQL", () => {
    const manifest = writeManifest(fullDevnet);
    const config = buildConfig({
      DEVNET_MANIFEST: manifest,
      RPC_URL_31337: "http://127.0.0.1:9999",
      DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/test",
    });
    expect(config.rpcUrls.get(31337)).toBe("http://127.0.0.1:9999");
    expect(config.database).toEqual({
      kind: "postgres",
      connectionString: "postgresql://postgres@127.0.0.1:5432/test",
    });
  });
});

describe("plugin composition", () => {
  it("adds only the active plugins' contracts, prefixed by plugin, on the right chains", () => {
    const manifest = writeManifest(fullDevnet);
    const config = buildConfig({ DEVNET_MANIFEST: manifest, PLUGINS: "subgraph,basenames" });
    const contracts = composeContracts(config);
    expect(Object.keys(contracts).sort()).toEqual(
      [
        "basenames/BaseRegistrar",
        "basenames/Registry",
        "basenames/RegistrarController",
        "basenames/Resolver",
        "subgraph/BaseRegistrar",
        "subgraph/LegacyEthRegistrarController",
        "subgraph/NameWrapper",
        "subgraph/Registry",
        "subgraph/RegistryOld",
        "subgraph/Resolver",
      ].sort(),
    );
    expect(contracts["subgraph/Registry"]).toMatchObject({
      chain: "devnetRoot",
      address: fullDevnet.ensroot.contracts.Registry.address,
      startBlock: 2,
    });
    expect(contracts["basenames/Registry"].chain).toBe("devnetBase");
    // Resolvers are matched at any address.
    expect(contracts["subgraph/Resolver"].address).toBeUndefined();
    expect(Object.keys(composeChains(config)).sort()).toEqual(["devnetBase", "devnetRoot"]);
  });

  it("lets two plugins index the same contract under different names", () => {
    const manifest = writeManifest(fullDevnet);
    const contracts = composeContracts(
      buildConfig({ DEVNET_MANIFEST: manifest, PLUGINS: "subgraph,registrars,tokenscope" }),
    );
    const registrar = fullDevnet.ensroot.contracts.BaseRegistrar.address;
    const names = Object.entries(contracts)
      .filter(([, c]) => c.address === registrar)
      .map(([name]) => name)
      .sort();
    expect(names).toEqual([
      "registrars/ensroot/BaseRegistrar",
      "subgraph/BaseRegistrar",
      "tokenscope/ensroot/BaseRegistrar",
    ]);
  });

  it("leaves a 3DNS resolver to the any-address resolver match of its chain (no contract without handlers)", () => {
    const devnet = composeContracts(
      buildConfig({ DEVNET_MANIFEST: writeManifest(fullDevnet), PLUGINS: "protocol-acceleration" }),
    );
    expect(devnet["protocol-acceleration/basenames/Resolver"].chain).toBe("devnetBase");
    expect(devnet["protocol-acceleration/basenames/Resolver"].address).toBeUndefined();
    expect(devnet["protocol-acceleration/threednsBase/Token"]).toBeDefined();
    expect(devnet["protocol-acceleration/threednsBase/Resolver"]).toBeUndefined();
    // Optimism has no registry of ours: its 3DNS resolver is indexed by address.
    const mainnet = composeContracts(
      buildConfig({ NAMESPACE: "mainnet", PLUGINS: "protocol-acceleration", ...mainnetRpc }),
    );
    expect(mainnet["protocol-acceleration/threednsOptimism/Resolver"]?.address).toBe(
      "0xf97aac6c8dbaebcb54ff166d79706e3af7a813c8",
    );
    expect(mainnet["protocol-acceleration/threednsBase/Resolver"]).toBeUndefined();
  });

  it("indexes Seaport for tokenscope's sales unless TOKENSCOPE_SALES=false, keeping the name tokens", () => {
    const withSales = composeContracts(
      buildConfig({
        NAMESPACE: "mainnet",
        PLUGINS: "tokenscope",
        RPC_URL_1: "https://e.example",
        RPC_URL_8453: "https://b.example",
        RPC_URL_59144: "https://l.example",
        RPC_URL_10: "https://o.example",
      }),
    );
    expect(withSales["tokenscope/ensroot/Seaport"]).toMatchObject({
      address: "0x00000000000000adc04c56bf30ac9d3c0aaf14dc",
      startBlock: 17129405,
    });
    const withoutSales = composeContracts(
      buildConfig({
        NAMESPACE: "mainnet",
        PLUGINS: "tokenscope",
        TOKENSCOPE_SALES: "false",
        RPC_URL_1: "https://e.example",
        RPC_URL_8453: "https://b.example",
        RPC_URL_59144: "https://l.example",
        RPC_URL_10: "https://o.example",
      }),
    );
    expect(withoutSales["tokenscope/ensroot/Seaport"]).toBeUndefined();
    expect(withoutSales["tokenscope/ensroot/BaseRegistrar"]).toBeDefined();
    expect(() => buildConfig({ TOKENSCOPE_SALES: "no" })).toThrow(/TOKENSCOPE_SALES: must be true or false/);
  });

  it("applies END_BLOCK_<chainId> to that chain's contracts only", () => {
    const manifest = writeManifest(fullDevnet);
    const contracts = composeContracts(
      buildConfig({ DEVNET_MANIFEST: manifest, PLUGINS: "subgraph,basenames", END_BLOCK_31338: "120" }),
    );
    expect(contracts["basenames/Registry"].endBlock).toBe(120);
    expect(contracts["subgraph/Registry"].endBlock).toBeUndefined();
  });

  it("gives a chain a fixed eth_getLogs block range from ETH_GETLOGS_BLOCK_RANGE_<chainId>, and no other chain", () => {
    const chains = composeChains(
      buildConfig({
        NAMESPACE: "mainnet",
        PLUGINS: "subgraph,basenames",
        ...mainnetRpc,
        ETH_GETLOGS_BLOCK_RANGE_1: "10000",
      }),
    );
    expect(chains.mainnet).toMatchObject({ id: 1, ethGetLogsBlockRange: 10000 });
    expect(chains.base!.ethGetLogsBlockRange).toBeUndefined();
    expect(() => buildConfig({ NAMESPACE: "mainnet", ...mainnetRpc, ETH_GETLOGS_BLOCK_RANGE_1: "0" })).toThrow(
      /ETH_GETLOGS_BLOCK_RANGE_1: must be a number of blocks, 1 or more/,
    );
  });

  it("disables Ponder's RPC cache for devnet chains only", () => {
    const devnet = composeChains(buildConfig({ DEVNET_MANIFEST: writeManifest(fullDevnet), PLUGINS: "subgraph" }));
    expect(devnet.devnetRoot).toMatchObject({ id: 31337, disableCache: true });
    const mainnet = composeChains(
      buildConfig({ NAMESPACE: "mainnet", PLUGINS: "subgraph", RPC_URL_1: "https://eth.example" }),
    );
    expect(mainnet.mainnet).toMatchObject({ id: 1, disableCache: false });
  });

  it("composes every plugin on mainnet across its six chains", () => {
    const config = buildConfig({ NAMESPACE: "mainnet", ...mainnetRpc });
    expect(Object.keys(composeChains(config)).sort()).toEqual([
      "arbitrum",
      "base",
      "linea",
      "mainnet",
      "optimism",
      "scroll",
    ]);
    expect(composeContracts(config)["protocol-acceleration/reverseScroll/L2ReverseRegistrar"]).toMatchObject({
      chain: "scroll",
      startBlock: 16604272,
    });
    const contracts = composeContracts(config);
    expect(contracts["threedns/threednsOptimism/Token"]).toMatchObject({ chain: "optimism", startBlock: 110393959 });
    expect(contracts["threedns/threednsBase/Token"]).toMatchObject({ chain: "base", startBlock: 17522624 });
    expect(contracts["registrars/ensroot/RenewalWithReferrer"].address).toBe(
      "0xf55575bde5953ee4272d5ce7cdd924c74d8fa81a",
    );
  });
});
