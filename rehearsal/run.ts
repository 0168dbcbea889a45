/*
 * npm run rehearsal — the configuration an operator runs (NAMESPACE=mainnet, sepolia, sepolia-v2), indexed on chains
 * shaped like those networks (real chain ids, the reference's addresses, genesis past the real start blocks, the history
 * below it as empty blocks) through an imitation of a hosted RPC provider, and compared row for row with the same
 * scenario indexed in devnet mode. Prints a table per network and database, and a last line:
 *   rehearsal: <equal>/<tables> tables equal; <events> events; <requests> RPC requests; <cold> s cold, <warm> s warm, <devnet> s devnet mode
 *
 *   REHEARSAL_NETWORKS=mainnet,sepolia,sepolia-v2  REHEARSAL_NAMES=200  REHEARSAL_DATABASES=postgres,pglite  REHEARSAL_SEED=1
 *   plus the provider imitation's REHEARSAL_* settings (rehearsal/README.md)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { chainsOfShape } from "../devnet/src/shape";
import { diffDumps } from "../harness/canonical-dump";
import { type HostedRpc, startHostedRpc } from "../harness/hosted-rpc/hosted-rpc";
import { type IndexRunResult, indexToEnd } from "../harness/index-run";
import { createDatabase, dropDatabase } from "../harness/indexer-harness";
import { type RehearsalChains, startRehearsalChains } from "../harness/mainnet-chains/chains";
import { REHEARSED_NAMESPACES, type ReferenceNamespace } from "../harness/mainnet-chains/reference-datasources";
import { PLUGINS } from "../src/plugins";
import type { PluginDefinition } from "../src/plugins/define";
import { PLUGIN_NAMES, type PluginName } from "../src/plugins/names";
import { hostedRpcOptionsFromEnv } from "./src/hosted-rpc-env";
import { describeSnapshotRun, refetchedHistory, type SnapshotRunResult, snapshotRun } from "./src/snapshot-run";

const settings = z
  .object({
    REHEARSAL_NETWORKS: z
      .string()
      .default("mainnet,sepolia,sepolia-v2")
      .pipe(
        z
          .string()
          .transform((s) => s.split(","))
          .pipe(z.array(z.enum(REHEARSED_NAMESPACES))),
      ),
    REHEARSAL_NAMES: z.coerce.number().int().positive().default(200),
    REHEARSAL_DATABASES: z
      .string()
      .default("postgres,pglite")
      .pipe(
        z
          .string()
          .transform((s) => s.split(","))
          .pipe(z.array(z.enum(["postgres", "pglite"]))),
      ),
    REHEARSAL_SEED: z.coerce.number().int().default(1),
    REHEARSAL_TIMEOUT_S: z.coerce.number().positive().default(1800),
    /** Blocks the chains move on between `snapshot create` and the restored index's start; `off` skips the run. */
    REHEARSAL_SNAPSHOT_BLOCKS: z
      .string()
      .default("30")
      .transform((s) => (s === "off" ? null : Number(s)))
      .pipe(z.number().int().positive().nullable()),
  })
  .parse(process.env);

/** The plugins a network's namespace can run (sepolia has no 3DNS). */
function pluginsFor(reference: ReferenceNamespace): string[] {
  return PLUGIN_NAMES.filter((name) => {
    const p = PLUGINS[name];
    return (
      p.requiredDatasources.every((ds) => reference[ds]) &&
      (!p.requiresOneOf || p.requiresOneOf.some((ds) => reference[ds]))
    );
  });
}

/**
 * Events per chain id. Ponder counts them by `<plugin>/<contract name>:<Event>`, the contract name being the plugin's
 * own (`Registry`, `ensroot/BaseRegistrar`, …): the plugin's definition says which datasource, and so which chain, it
 * is. A name no plugin defines counts under -1.
 */
function eventsByChain(events: Record<string, number>, reference: ReferenceNamespace): Map<number, number> {
  const out = new Map<number, number>();
  for (const [key, n] of Object.entries(events)) {
    const slash = key.indexOf("/");
    const plugin = pluginDefinitionOrUndefined(key.slice(0, slash));
    const name = key.slice(slash + 1, key.lastIndexOf(":"));
    const ds = plugin?.contracts.find((c) => c.name === name)?.datasource;
    const chainId = (ds && reference[ds]?.chainId) ?? -1;
    out.set(chainId, (out.get(chainId) ?? 0) + n);
  }
  return out;
}

const pluginDefinitionOrUndefined = (name: string): PluginDefinition | undefined =>
  (PLUGIN_NAMES as readonly string[]).includes(name) ? PLUGINS[name as PluginName] : undefined;

interface NetworkResult {
  network: string;
  database: string;
  tablesEqual: number;
  tables: number;
  events: number;
  requests: number;
  cold: number;
  warm: number;
  devnet: number;
  snapshot: SnapshotRunResult | null;
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);

async function rehearse(
  chains: RehearsalChains,
  database: "postgres" | "pglite",
  proxies: Map<number, HostedRpc>,
): Promise<NetworkResult> {
  const { reference, network } = chains;
  const plugins = pluginsFor(reference);
  const endBlocks = Object.fromEntries(
    Object.entries(chains.endBlocks).map(([id, b]) => [`END_BLOCK_${id}`, String(b)]),
  );
  const rpcUrls = Object.fromEntries([...proxies].map(([id, p]) => [`RPC_URL_${id}`, p.url]));
  const common = { labelsServiceUrl: chains.env.labelsUrl, plugins, database } as const;
  const timeout = settings.REHEARSAL_TIMEOUT_S * 1000;
  const workDir = mkdtempSync(join(tmpdir(), "nameindex-rehearsal-"));
  const dbName = `rehearsal_${Date.now().toString(36)}`;
  const reuse =
    database === "postgres"
      ? { databaseUrl: await createDatabase(dbName) }
      : { pgliteDirectory: join(workDir, "pglite") };
  const devnetReuse =
    database === "postgres"
      ? { databaseUrl: await createDatabase(`${dbName}_devnet`) }
      : { pgliteDirectory: join(workDir, "pglite-devnet") };
  const runs: IndexRunResult[] = [];
  const snapshotDatabases: string[] = [];
  try {
    console.log(`\n${network} on ${database}: plugins ${plugins.join(",")}`);
    const devnet = await indexToEnd(
      "devnet mode",
      { ...common, manifestPath: chains.devnetManifestPath, extraEnv: endBlocks, reuse: devnetReuse },
      timeout,
    );
    runs.push(devnet);
    console.log(`  devnet mode: ${fmt(devnet.seconds)} s`);

    // The devnet's label service serves the demo label set (a public network's default pin is "subgraph").
    const rehearsalEnv = { NAMESPACE: network, LABEL_SET_ID: "demo", LABEL_SET_VERSION: "0", ...rpcUrls, ...endBlocks };
    const callsOf = () => Object.fromEntries([...proxies].map(([id, p]) => [id, p.calls()]));
    for (const p of proxies.values()) p.resetCounters();
    const cold = await indexToEnd(
      "cold",
      { ...common, manifestPath: chains.devnetManifestPath, extraEnv: rehearsalEnv, reuse },
      timeout,
    );
    runs.push(cold);
    const coldCalls = callsOf();
    console.log(`  cold (empty RPC cache): ${fmt(cold.seconds)} s`);
    for (const p of proxies.values()) p.resetCounters();
    const warm = await indexToEnd(
      "warm",
      { ...common, manifestPath: chains.devnetManifestPath, extraEnv: rehearsalEnv, reuse },
      timeout,
    );
    runs.push(warm);
    const warmCalls = callsOf();
    console.log(`  warm (new schema, same ponder_sync): ${fmt(warm.seconds)} s`);

    const diffs = { cold: diffDumps(devnet.dump, cold.dump), warm: diffDumps(devnet.dump, warm.dump) };
    for (const [run, problems] of Object.entries(diffs))
      for (const p of problems) console.log(`  DIFFERENCE devnet mode vs ${run}: ${p}`);
    const tables = Object.keys(devnet.dump).length;
    const unequal = new Set([...diffs.cold, ...diffs.warm].map((p) => p.split(":")[0]));
    // Equal tables mean little if they are empty: say which are, and what the ENSv2 tables hold where they are indexed.
    const rows = Object.entries(devnet.dump);
    const empty = rows.filter(([, t]) => t.rows === 0).map(([name]) => name);
    console.log(
      `  devnet mode's index: ${rows.reduce((a, [, t]) => a + t.rows, 0)} rows in ${tables} tables; empty: ${empty.join(", ") || "none"}`,
    );
    if (plugins.includes("ensv2")) {
      const ensv2 = rows.filter(([name]) => name.startsWith("ensv2_")).map(([name, t]) => `${name}=${t.rows}`);
      console.log(`  ENSv2 rows: ${ensv2.join(" ")}`);
    }

    // Equal tables from unequal event counts: a contract of the namespace's that starts earlier than devnet mode's
    // (below genesis) receives logs devnet mode does not hand to the handlers, which must then leave no trace.
    const counted = [...new Set([...Object.keys(devnet.events), ...Object.keys(cold.events)])].sort();
    const unequalCounts = counted.filter((k) => (devnet.events[k] ?? 0) !== (cold.events[k] ?? 0));
    if (unequalCounts.length > 0)
      console.log(
        `  events counted apart (devnet mode → ${network}): ${unequalCounts.map((k) => `${k} ${devnet.events[k] ?? 0} → ${cold.events[k] ?? 0}`).join(", ")}`,
      );
    const byChain = eventsByChain(cold.events, reference);
    if (byChain.has(-1)) console.log(`  ${byChain.get(-1)} events of contracts no plugin defines (not in the table)`);
    const methods = [...new Set(Object.values(coldCalls).flatMap((c) => Object.keys(c)))].sort();
    const header = ["chain", "events", ...methods, "requests", "req/1k ev", "warm req"];
    const chainRows = [...proxies.keys()].map((id) => {
      const calls = coldCalls[id]!;
      const total = Object.values(calls).reduce((a, b) => a + b, 0);
      const events = byChain.get(id) ?? 0;
      const warmTotal = Object.values(warmCalls[id]!).reduce((a, b) => a + b, 0);
      return [
        String(id),
        String(events),
        ...methods.map((m) => String(calls[m] ?? 0)),
        String(total),
        events ? fmt((total * 1000) / events, 0) : "-",
        String(warmTotal),
      ];
    });
    const widths = header.map((h, i) => Math.max(h.length, ...chainRows.map((r) => r[i]!.length)));
    const line = (cells: string[]) => `  | ${cells.map((c, i) => c.padStart(widths[i]!)).join(" | ")} |`;
    console.log(line(header));
    for (const r of chainRows) console.log(line(r));
    const events = Object.values(cold.events).reduce((a, b) => a + b, 0);
    const requests = Object.values(coldCalls).reduce((a, c) => a + Object.values(c).reduce((x, y) => x + y, 0), 0);
    console.log(
      `  cold ${fmt(cold.seconds)} s (${fmt(cold.seconds / devnet.seconds, 2)}× devnet mode), warm ${fmt(warm.seconds)} s (${fmt(warm.seconds / cold.seconds, 2)}× cold), devnet mode ${fmt(devnet.seconds)} s`,
    );
    console.log(
      `  peak RSS: devnet mode ${fmt(devnet.peakRssMb, 0)} MiB, cold ${fmt(cold.peakRssMb, 0)} MiB, warm ${fmt(warm.peakRssMb, 0)} MiB`,
    );
    console.log(
      `  ${requests} RPC requests for ${events} events: ${fmt((requests * 1000) / Math.max(1, events), 0)} per 1,000 events`,
    );
    const snapshot =
      settings.REHEARSAL_SNAPSHOT_BLOCKS === null
        ? null
        : await snapshotRun({
            chains,
            proxies,
            indexer: { ...common, manifestPath: chains.devnetManifestPath, extraEnv: withoutEndBlocks(rehearsalEnv) },
            workDir,
            newDatabase: async (tag) => {
              snapshotDatabases.push(`${dbName}_snap_${tag}`);
              return await createDatabase(`${dbName}_snap_${tag}`);
            },
            moreBlocks: settings.REHEARSAL_SNAPSHOT_BLOCKS,
            sampleNames: 200,
            log: (line) => console.log(`  ${line}`),
          });
    if (snapshot) {
      for (const d of snapshot.differences) console.log(`  DIFFERENCE cold vs resumed from the snapshot: ${d}`);
      console.log(`  ${describeSnapshotRun(snapshot)}`);
    }
    return {
      network,
      database,
      snapshot,
      tablesEqual: tables - unequal.size,
      tables,
      events,
      requests,
      cold: cold.seconds,
      warm: warm.seconds,
      devnet: devnet.seconds,
    };
  } finally {
    for (const run of runs) await run.indexer.stop();
    if (database === "postgres") {
      for (const name of snapshotDatabases) await dropDatabase(name);
      await dropDatabase(dbName);
      await dropDatabase(`${dbName}_devnet`);
    }
    rmSync(workDir, { recursive: true, force: true });
  }
}

/** The rehearsal's env for an index that follows the heads (the snapshot run): no END_BLOCK_*. */
function withoutEndBlocks(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([key]) => !key.startsWith("END_BLOCK_")));
}

async function main(): Promise<void> {
  const hosted = hostedRpcOptionsFromEnv(process.env);
  console.log(
    `rehearsal — ${settings.REHEARSAL_NAMES} names, seed ${settings.REHEARSAL_SEED}, networks ${settings.REHEARSAL_NETWORKS.join(",")}, databases ${settings.REHEARSAL_DATABASES.join(",")}, load average ${loadavg()[0].toFixed(1)}`,
  );
  console.log(`provider imitation: ${JSON.stringify(hosted)}`);
  const results: NetworkResult[] = [];
  for (const network of settings.REHEARSAL_NETWORKS) {
    const t0 = Date.now();
    const chains = await startRehearsalChains({
      network,
      seed: settings.REHEARSAL_SEED,
      names: settings.REHEARSAL_NAMES,
      log: (l) => console.log(`  ${l}`),
    });
    const proxies = new Map<number, HostedRpc>();
    try {
      for (const [chainId, node] of chains.nodes)
        proxies.set(chainId, await startHostedRpc({ ...hosted, upstream: node.url }));
      console.log(
        `${network}: chains ${[...chains.nodes.keys()].join(", ")} ready in ${fmt((Date.now() - t0) / 1000)} s (genesis ${chainsOfShape(
          chains.shape,
        )
          .map((c) => `${c.chainId}@${c.genesisNumber}`)
          .join(", ")})`,
      );
      for (const database of settings.REHEARSAL_DATABASES) results.push(await rehearse(chains, database, proxies));
    } finally {
      for (const p of proxies.values()) await p.close();
      await chains.stop();
    }
  }
  console.log(
    "\n| network | database | tables equal | events | RPC requests | cold s | warm s | devnet mode s | cold/devnet | warm/cold |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  for (const r of results) {
    console.log(
      `| ${r.network} | ${r.database} | ${r.tablesEqual}/${r.tables} | ${r.events} | ${r.requests} | ${fmt(r.cold)} | ${fmt(r.warm)} | ${fmt(r.devnet)} | ${fmt(r.cold / r.devnet, 2)} | ${fmt(r.warm / r.cold, 2)} |`,
    );
  }
  const sum = (f: (r: NetworkResult) => number) => results.reduce((a, r) => a + f(r), 0);
  console.log(
    `rehearsal: ${sum((r) => r.tablesEqual)}/${sum((r) => r.tables)} tables equal; ${sum((r) => r.events)} events; ${sum((r) => r.requests)} RPC requests; ${fmt(sum((r) => r.cold))} s cold, ${fmt(sum((r) => r.warm))} s warm, ${fmt(sum((r) => r.devnet))} s devnet mode`,
  );
  for (const r of results) if (r.snapshot) console.log(`${r.network} ${describeSnapshotRun(r.snapshot)}`);
  if (sum((r) => r.tablesEqual) !== sum((r) => r.tables)) process.exitCode = 1;
  if (results.some((r) => r.snapshot && (r.snapshot.tablesEqual !== r.snapshot.tables || refetchedHistory(r.snapshot))))
    process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
