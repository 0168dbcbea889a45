import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CanonicalDump, diffDumps, dumpPglite, dumpPostgres } from "../../harness/canonical-dump";
import { syncClocksAndWaitRealtime } from "../../harness/chain-clock";
import {
  FAULT_FREE_REQUESTS_PER_SECOND,
  type HostedRpc,
  startFaultFreeProxies,
} from "../../harness/hosted-rpc/hosted-rpc";
import {
  createDatabase,
  dropDatabase,
  exitCodeOf,
  type IndexerOptions,
  type RunningIndexer,
  settledStatus,
  startIndexer,
} from "../../harness/indexer-harness";
import { type RehearsalChains, startRehearsalChains } from "../../harness/mainnet-chains/chains";
import { isLabelPrefetch, lowestLogsBlock, type RecordedCall, startRecordingRpc } from "../../harness/recording-rpc";
import { seededRandom } from "../../harness/seeded-random";
import { describeVersions, runningVersions } from "../../src/indexing/build-record";
import { DEFAULT_PLUGIN_NAMES } from "../../src/plugins/names";
import { ChainWorkload } from "./support/chain-workload";
import { type PreviousRelease, previousRelease } from "./support/previous-release";
import { bySize, report } from "./support/scale";

/*
 * Issue 50, upgrade in place: an operator's index written by the previous release (its tree from git, its own Ponder
 * 0.16.10 and patches) meets this release on the same database. This release changes the indexing code, so it refuses
 * to resume that schema, naming both releases and the recipe, and leaves it as it was; the recipe (docs/operations.md,
 * "Upgrading nameindex") then indexes into a new schema of the same database, reading the RPC cache the old index
 * filled, while new blocks arrive, and ends equal to a cold index of the final chains in a fresh database.
 *
 * The chains are the devnet scenario on mainnet-shaped chains (the rehearsal's: NAMESPACE=mainnet, real chain ids and
 * addresses), because the devnet namespace turns Ponder's RPC cache off, and the cache is what an upgrade reuses.
 */

const PREVIOUS_RELEASE = "431022c294c55c4ae1d943d608a626eb0a776575";
/** How a refusal names the previous release: nameindex 0.1.0 recorded no versions in its build record. */
const PREVIOUS_WRITER = "nameindex 0.1.0 or earlier (Ponder 0.16.10 or earlier)";
/** The plugins an operator gets by default (all but the opt-in ENSv2). */
const PLUGINS = [...DEFAULT_PLUGIN_NAMES];
const SEED = 50;
/** Ponder's finality depth on chain 1: it caches a block's data once the block is this deep. */
const ETHEREUM_FINALITY = 65;
/** Names in the scenario, and blocks each chain mines (registrations, transfers, records) once the upgrade started. */
const size = bySize({ ci: { names: 10, blocks: 6 }, full: { names: 200, blocks: 40 } });
const say = (line: string) => report("upgrade", line);

/** A recording proxy in front of each chain's provider imitation: one indexer's RPC calls, apart from the others'. */
async function recordedRpc(proxies: Map<number, HostedRpc>) {
  const recorders = new Map<number, Awaited<ReturnType<typeof startRecordingRpc>>>();
  for (const [chainId, proxy] of proxies) recorders.set(chainId, await startRecordingRpc(proxy.url));
  return {
    env: Object.fromEntries([...recorders].map(([id, r]) => [`RPC_URL_${id}`, r.url])),
    calls: (chainId?: number): RecordedCall[] =>
      [...recorders].flatMap(([id, r]) => (chainId === undefined || id === chainId ? r.calls : [])),
    close: async () => {
      for (const r of recorders.values()) await r.close();
    },
  };
}

const syncLogs = (calls: RecordedCall[]) => calls.filter((c) => c.method === "eth_getLogs" && !isLabelPrefetch(c));

describe("upgrading in place from the previous release", () => {
  let release: PreviousRelease;
  let chains: RehearsalChains;
  let proxies: Map<number, HostedRpc>;
  let workloads: ChainWorkload[];
  let nodeUrls: string[];
  let workDir: string;
  const databases: string[] = [];

  beforeAll(async () => {
    release = await previousRelease(PREVIOUS_RELEASE, say);
    say(
      `previous release ${PREVIOUS_RELEASE.slice(0, 10)}: nameindex ${release.version} (Ponder ${release.ponderVersion})` +
        (release.madeInSeconds === null ? ", reused" : `, materialised in ${release.madeInSeconds.toFixed(0)} s`),
    );
    workDir = mkdtempSync(join(tmpdir(), "nameindex-upgrade-"));
    chains = await startRehearsalChains({ network: "mainnet", seed: SEED, names: size.names });
    proxies = await startFaultFreeProxies(chains.nodes, SEED);
    workloads = await ChainWorkload.forDevnet(chains.env.devnet.manifest, seededRandom(SEED));
    nodeUrls = [...chains.nodes.values()].map((n) => n.url);
  }, 600_000);

  afterAll(async () => {
    for (const p of proxies?.values() ?? []) await p.close();
    await chains?.stop();
    for (const name of databases) await dropDatabase(name);
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  async function newTarget(database: "postgres" | "pglite", tag: string): Promise<IndexerOptions["reuse"]> {
    if (database === "pglite") return { pgliteDirectory: join(workDir, `pglite-${tag}-${Date.now().toString(36)}`) };
    const name = `upgrade_${tag}_${Date.now().toString(36)}`;
    databases.push(name);
    return { databaseUrl: await createDatabase(name) };
  }

  function options(
    database: "postgres" | "pglite",
    reuse: IndexerOptions["reuse"],
    rpcEnv: Record<string, string>,
  ): IndexerOptions {
    return {
      manifestPath: chains.devnetManifestPath,
      labelsServiceUrl: chains.env.labelsUrl,
      plugins: PLUGINS,
      database,
      reuse,
      // The devnet's label service serves the demo label set (a public network's default pin is "subgraph"). The RPC
      // rate is the imitation's cap, as an operator sets their provider's (docs/operations.md): from Ponder's own 20
      // requests/s, each index's first fetch of the unfinalized blocks took some 25 s. The previous release ignores it.
      extraEnv: {
        NAMESPACE: "mainnet",
        LABEL_SET_ID: "demo",
        LABEL_SET_VERSION: "0",
        RPC_REQUESTS_PER_SECOND: String(FAULT_FREE_REQUESTS_PER_SECOND),
        ...rpcEnv,
      },
    };
  }

  const dumpOf = (indexer: RunningIndexer, bookkeeping = false): Promise<CanonicalDump> =>
    indexer.pgliteDirectory
      ? dumpPglite(indexer.pgliteDirectory, indexer.schema, { bookkeeping })
      : dumpPostgres(indexer.env.DATABASE_URL!, indexer.schema, { bookkeeping });

  /** Every chain mines `blocks` blocks of the workload's actions (registrations, transfers, records, primary names). */
  async function newBlocks(blocks: number): Promise<void> {
    for (let i = 0; i < blocks; i++) await Promise.all(workloads.map((w) => w.mineBlock()));
  }

  for (const database of ["postgres", "pglite"] as const) {
    it(`${database}: refused with both releases named and the old schema unchanged; a new schema on the same database reuses the RPC cache and equals a cold index`, async () => {
      const started = Date.now();
      const target = await newTarget(database, "operator");
      const running: RunningIndexer[] = [];
      const closers: (() => Promise<void>)[] = [];
      const track = (indexer: RunningIndexer) => {
        running.push(indexer);
        return indexer;
      };
      try {
        // 1. The operator's index, written by the previous release, followed to the heads and stopped cleanly.
        const proxyEnv = Object.fromEntries([...proxies].map(([id, p]) => [`RPC_URL_${id}`, p.url]));
        const old = track(await startIndexer({ ...options(database, target, proxyEnv), projectRoot: release.root }));
        await old.process.ready();
        await syncClocksAndWaitRealtime(nodeUrls, old.url);
        await settledStatus(old, 3_000, 120_000);
        const oldHeads = new Map(await Promise.all(workloads.map(async (w) => [w.chainId, await w.head()] as const)));
        await old.process.stop();
        const recordFile = target?.pgliteDirectory ? join(target.pgliteDirectory, "nameindex-build.json") : undefined;
        const readRecordFile = () => (recordFile && existsSync(recordFile) ? readFileSync(recordFile, "utf8") : "");
        const before = await dumpOf(old, true);
        const recordBefore = readRecordFile();
        // PostgreSQL keeps the build record in the schema, PGlite in a file beside it.
        expect(Object.keys(before)).toEqual(expect.arrayContaining(["_ponder_meta", "_ponder_checkpoint"]));
        if (database === "postgres") expect(Object.keys(before)).toContain("_nameindex_build");
        else expect(recordBefore).toContain(`"${old.schema}"`);

        // 2. This release on the same schema: refused, naming both releases and the recipe; nothing in it changes.
        const refused = track(await startIndexer({ ...options(database, target, proxyEnv), schema: old.schema }));
        const code = await exitCodeOf(refused, 120_000);
        const log = readFileSync(refused.logFile, "utf8");
        const current = describeVersions(runningVersions());
        expect(code).not.toBe(0);
        expect(log).toContain(
          `Schema "${old.schema}" holds an index written by ${PREVIOUS_WRITER}, and this is ${current} with other ` +
            `indexing code and another Ponder (the index's 0.16.10 or earlier, this ${runningVersions().ponder}): ` +
            "resuming it would mix rows written by both. The schema is left as it was. To upgrade, " +
            `index anew beside it: start this release with a new DATABASE_SCHEMA and the same ${database === "postgres" ? "DATABASE_URL" : "PGLITE_DIRECTORY"}`,
        );
        expect(log).toContain('(docs/operations.md, "Upgrading nameindex").');
        const after = await dumpOf(old, true);
        expect(diffDumps(before, after)).toEqual([]);
        expect(readRecordFile()).toBe(recordBefore);
        const rows = Object.values(before).reduce((sum, t) => sum + t.rows, 0);

        // 3. The recipe: the old release keeps serving its schema (PostgreSQL: it resumes it; PGlite is one process,
        // so it stays stopped), and this release indexes a new schema of the same database while new blocks arrive.
        if (database === "postgres") {
          await old.restart();
          await old.process.ready();
        }
        const upgradeRpc = await recordedRpc(proxies);
        closers.push(upgradeRpc.close);
        const upgradeStarted = Date.now();
        const upgraded = track(await startIndexer(options(database, target, upgradeRpc.env)));
        await newBlocks(Math.ceil(size.blocks / 2));
        await upgraded.process.ready();
        await newBlocks(Math.floor(size.blocks / 2));

        // 4. A cold index of the final chains with this release, in a fresh database, against the upgraded one. It
        // starts now, beside the upgraded one's catch-up: the chains get no more blocks of their own, and both end at
        // the blocks the syncs below mine, so it still indexes the final chains. (Each index's first new head makes
        // Ponder fetch the chains' unfinalized blocks, 240 on Arbitrum: time the two spend side by side rather than
        // one after the other.)
        const coldRpc = await recordedRpc(proxies);
        closers.push(coldRpc.close);
        const cold = track(await startIndexer(options(database, await newTarget(database, "cold"), coldRpc.env)));

        await syncClocksAndWaitRealtime(nodeUrls, upgraded.url);
        const upgradeSeconds = (Date.now() - upgradeStarted) / 1000;
        const upgradeCalls = upgradeRpc.calls();
        if (database === "postgres") {
          // The old release followed the same blocks on its schema meanwhile: it kept serving until the switch.
          await syncClocksAndWaitRealtime(nodeUrls, old.url);
          await old.process.stop();
        }

        await cold.process.ready();
        await syncClocksAndWaitRealtime(nodeUrls, cold.url);
        const coldCalls = coldRpc.calls();
        await syncClocksAndWaitRealtime(nodeUrls, upgraded.url);
        await settledStatus(upgraded, 3_000, 120_000);
        await settledStatus(cold, 3_000, 120_000);
        if (database === "pglite") {
          await upgraded.process.stop();
          await cold.process.stop();
        }
        const [upgradedDump, coldDump] = await Promise.all([dumpOf(upgraded), dumpOf(cold)]);
        const differences = diffDumps(coldDump, upgradedDump);
        const tables = Object.keys(coldDump).length;
        const indexedRows = Object.values(coldDump).reduce((sum, t) => sum + t.rows, 0);

        // What the new schema fetched: none of the history the old index had cached. Ponder caches a block once it is
        // final (65 blocks deep on chain 1), so the old index's unfinalized tail comes again, and nothing below it;
        // the bound leaves it twice that depth (the tail ended a block lower on PGlite). A cold index asks from the
        // start blocks. The label prefetch reads the registries' first blocks at every start and is left out.
        const rootId = chains.shape.root.chainId;
        const oldRootHead = oldHeads.get(rootId)!;
        const cachedUpTo = oldRootHead - 2 * ETHEREUM_FINALITY;
        const historyRequests = (calls: RecordedCall[]) =>
          syncLogs(calls).filter((c) => Number((c.params[0] as { fromBlock?: string }).fromBlock) < cachedUpTo).length;
        const upgradeLowest = lowestLogsBlock(syncLogs(upgradeRpc.calls(rootId)));
        const coldLowest = lowestLogsBlock(syncLogs(coldRpc.calls(rootId)));
        const upgradeHistory = historyRequests(upgradeRpc.calls(rootId));
        const coldHistory = historyRequests(coldRpc.calls(rootId));

        // PGlite: the old release can go back to its schema in the upgraded directory (the recipe's way back).
        let rollback = "";
        if (database === "pglite") {
          await old.restart();
          await old.process.ready();
          await syncClocksAndWaitRealtime(nodeUrls, old.url);
          await old.process.stop();
          rollback = `; old release resumed its schema afterwards`;
        }

        const equal = tables - new Set(differences.map((d) => d.split(":")[0])).size;
        say(
          `${database}: ${release.version} (Ponder ${release.ponderVersion}) → ${runningVersions().nameindex} ` +
            `(Ponder ${runningVersions().ponder}): refused, old schema unchanged (${Object.keys(before).length} tables, ` +
            `${rows} rows, Ponder's own included); new schema on the same database resumed from ponder_sync: ` +
            `${upgradeCalls.length} RPC calls, ${upgradeHistory} root-chain log requests below the old index's last ` +
            `${2 * ETHEREUM_FINALITY} blocks (from block ${upgradeLowest}, old head ${oldRootHead}), against a cold ` +
            `index's ${coldCalls.length} and ${coldHistory} (from block ${coldLowest}); ${upgradeSeconds.toFixed(0)} s ` +
            `to the head with ${size.blocks} new blocks per chain; ${equal}/${tables} tables equal to a cold index ` +
            `(${indexedRows} rows)${rollback}; ${((Date.now() - started) / 1000).toFixed(0)} s`,
        );
        for (const d of differences) say(`${database}: DIFFERENCE ${d}`);
        expect(differences).toEqual([]);
        expect(tables).toBeGreaterThan(20);
        expect(indexedRows).toBeGreaterThan(size.names);
        // The RPC cache was read, not refilled: no root-chain history fetched again.
        expect(upgradeLowest).not.toBeNull();
        expect(upgradeHistory).toBe(0);
        expect(coldHistory).toBeGreaterThan(0);
      } catch (error) {
        for (const indexer of running) {
          const tail = existsSync(indexer.logFile)
            ? readFileSync(indexer.logFile, "utf8").split("\n").slice(-25).join("\n")
            : "(no log)";
          say(`--- last lines of ${indexer.schema}'s log (${indexer.logFile}) ---\n${tail}`);
        }
        throw error;
      } finally {
        for (const indexer of running) await indexer.stop().catch(() => {});
        for (const close of closers) await close();
      }
    }, 900_000);
  }
});
