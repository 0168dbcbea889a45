/**
 * `npm start`: the whole demo on one machine with nothing configured — a local devnet (or the chains the environment
 * names), the label service with a demo label set, and the indexer on PGlite — until Ctrl-C stops every part.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readLauncherEnv } from "../src/config/launcher-env";
import { readDevnetManifest } from "../src/namespaces/devnet-manifest";
import { DEFAULT_PLUGIN_NAMES } from "../src/plugins/names";
import { devnetPgliteDirectory } from "./lib/devnet-pglite-directory";
import { printEndpoints } from "./lib/endpoints";
import { forgetDevnetSyncData } from "./lib/forget-devnet-sync";
import { type PonderProcess, startPonder } from "./lib/ponder-process";
import { isPortFree } from "./lib/ports";

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(projectRoot);
if (existsSync(".env")) process.loadEnvFile(".env");

const log = (line: string) => console.log(`[start] ${line}`);
const stops: (() => Promise<void>)[] = [];
let stopping = false;

async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    log("stopping…");
    for (const stop of stops.reverse()) {
      await stop().catch((error) => console.error(`[start] while stopping: ${(error as Error).message}`));
    }
    log("stopped");
  }
  process.exit(code);
}
process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));

async function main(): Promise<void> {
  log(`node ${process.version} (${process.execPath})`);
  const settings = readLauncherEnv(process.env);
  const { NAMESPACE: namespace, PORT: port, LABELS_PORT: labelsPort } = settings;
  const stateDir = resolve(settings.NAMEINDEX_STATE_DIR ?? projectRoot);
  const env: NodeJS.ProcessEnv = { ...process.env, NAMESPACE: namespace };
  mkdirSync(stateDir, { recursive: true });

  let freshDevnet = false;
  let newDevnetChainIds: number[] = [];
  let scenarioLabels: { labels: string[]; unhealable: string[] } = { labels: [], unhealable: [] };
  if (namespace === "devnet") {
    if (settings.DEVNET_MANIFEST) {
      log(`indexing the devnet described by ${settings.DEVNET_MANIFEST} (not starting chains)`);
    } else {
      const manifestPath = resolve(stateDir, ".devnet", "manifest.json");
      log("starting the devnet: 3 local chains, real ENS contracts, a scenario…");
      const { startDevnet } = await import("../devnet/src/index");
      const devnet = await startDevnet({
        seed: settings.DEVNET_SEED,
        names: settings.DEVNET_NAMES,
        manifestPath,
        mineInterval: 1,
        log: (line: string) => log(`devnet: ${line}`),
      });
      stops.push(() => devnet.stop());
      env.DEVNET_MANIFEST = devnet.manifestPath;
      freshDevnet = true;
      newDevnetChainIds = Object.keys(devnet.manifest.chains).map(Number);
      const scenario = devnet.manifest.scenario as { labels?: string[]; unhealableLabels?: string[] };
      scenarioLabels = { labels: scenario.labels ?? [], unhealable: scenario.unhealableLabels ?? [] };
      for (const [chainId, chain] of Object.entries(devnet.manifest.chains))
        log(`chain ${chainId} (${chain.name}) at ${chain.rpcUrl}`);
    }
  }

  // The devnet plays ENSv2 beside ENSv1: the demo indexes it too, unless PLUGINS names the plugins itself.
  if (namespace === "devnet" && !env.PLUGINS && env.DEVNET_MANIFEST && readDevnetManifest(env.DEVNET_MANIFEST).ensv2) {
    env.PLUGINS = [...DEFAULT_PLUGIN_NAMES, "ensv2"].join(",");
  }

  if (settings.LABELS_SERVICE_URL) {
    log(`using the label service at ${settings.LABELS_SERVICE_URL}`);
  } else {
    const dbPath = resolve(stateDir, "data", "labels.sqlite");
    mkdirSync(dirname(dbPath), { recursive: true });
    // The demo set is made for the devnet's scenario labels: a new devnet gets a new set.
    if (freshDevnet) for (const suffix of ["", "-wal", "-shm"]) rmSync(dbPath + suffix, { force: true });
    const labels = await import("../labels-service/src/index");
    log("preparing the demo label set (word list + scenario labels, some left out so healing has misses)…");
    await labels.ingestDemoLabelSet({
      dbPath,
      extraLabels: scenarioLabels.labels,
      excludeLabels: scenarioLabels.unhealable,
    });
    if (!(await isPortFree(labelsPort)))
      throw new Error(`LABELS_PORT ${labelsPort} is in use; set LABELS_PORT to a free port`);
    const server = await labels.startLabelsServer({ dbPath, port: labelsPort, host: "127.0.0.1" });
    stops.push(() => server.close());
    env.LABELS_SERVICE_URL = server.url;
    env.LABELS_DB ??= dbPath;
    log(`label service at ${server.url}`);
  }

  if (env.DATABASE_URL) {
    log(`indexing into PostgreSQL (schema ${env.DATABASE_SCHEMA || "nameindex"})`);
    if (freshDevnet && newDevnetChainIds.length > 0) await forgetDevnetSyncData(env.DATABASE_URL, newDevnetChainIds);
  } else {
    // Devnets reuse chain ids (and often addresses) with new contents: each manifest gets an index of its own, so a
    // restart resumes the same devnet's index and never another's. A new devnet drops the old devnet indexes.
    const ponderDir = resolve(stateDir, ".ponder");
    if (freshDevnet) {
      for (const entry of existsSync(ponderDir) ? readdirSync(ponderDir) : []) {
        if (entry.startsWith("pglite-devnet")) rmSync(join(ponderDir, entry), { recursive: true, force: true });
      }
    }
    const pgliteDir = settings.PGLITE_DIRECTORY
      ? namespace === "devnet"
        ? devnetPgliteDirectory({ directory: settings.PGLITE_DIRECTORY, stateDir, freshDevnet, log })
        : resolve(settings.PGLITE_DIRECTORY)
      : namespace === "devnet"
        ? join(
            ponderDir,
            `pglite-devnet-${createHash("sha256").update(readFileSync(env.DEVNET_MANIFEST!)).digest("hex").slice(0, 12)}`,
          )
        : join(ponderDir, `pglite-${namespace}`);
    env.PGLITE_DIRECTORY = pgliteDir;
    log(`indexing into PGlite at ${pgliteDir}`);
  }

  if (!(await isPortFree(port))) throw new Error(`PORT ${port} is in use; set PORT to a free port`);
  const logFile = resolve(stateDir, ".ponder", "indexer.log");
  mkdirSync(dirname(logFile), { recursive: true });
  const indexer: PonderProcess = startPonder({
    projectRoot,
    command: "start",
    port,
    schema: settings.DATABASE_SCHEMA,
    env,
    logFile,
  });
  stops.push(() => indexer.stop());
  indexer.child.once("exit", (code) => {
    if (!stopping) {
      console.error(`[start] the indexer exited with code ${code}; its log: ${logFile}`);
      void shutdown(1);
    }
  });
  log(`indexer starting at ${indexer.url} (log: ${logFile})`);
  let lastLine = "";
  await indexer.ready((status) => {
    const line = Object.entries(status)
      .map(([chain, s]) => `${chain} block ${s.block?.number ?? "…"}`)
      .join(", ");
    if (line && line !== lastLine) log(`indexing: ${line}`);
    lastLine = line;
  });
  printEndpoints(indexer.url, env.LABELS_SERVICE_URL ?? "");
  log("ready — Ctrl-C stops everything");
}

main().catch((error) => {
  console.error(`[start] ${(error as Error).message}`);
  void shutdown(1);
});
