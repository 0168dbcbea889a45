import { mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { encodeFunctionData, type Hex, keccak256, parseAbi, toHex } from "viem";
import { type CanonicalDump, diffDumps, dumpPglite, dumpPostgres } from "../../harness/canonical-dump";
import { syncClocksAndWaitRealtime } from "../../harness/chain-clock";
import { rpc } from "../../harness/devnet-fixture";
import type { HostedRpc } from "../../harness/hosted-rpc/hosted-rpc";
import { type IndexerOptions, type RunningIndexer, settledStatus, startIndexer } from "../../harness/indexer-harness";
import type { RehearsalChains } from "../../harness/mainnet-chains/chains";
import { isLabelPrefetch, lowestLogsBlock, startRecordingRpc } from "../../harness/recording-rpc";
import { createSnapshot, restoreSnapshot } from "../../snapshot";
import { readSnapshotFile } from "../../snapshot/container";
import { buildConfig } from "../../src/config";

/*
 * The operator's snapshot path on mainnet-shaped chains: an index follows the heads through the provider imitation,
 * `snapshot create` publishes it, the chains move on (new names on the root chain, M more blocks on every chain),
 * `snapshot restore` verifies it into a new database (or PGlite directory) against the imitation, `ponder start`
 * resumes and follows the heads, and its tables must equal a cold index of the final chains.
 */

export interface SnapshotRunResult {
  database: "postgres" | "pglite";
  sizeMiB: number;
  restoreSeconds: number;
  verifySeconds: number;
  verifyCalls: number;
  catchUpSeconds: number;
  catchUpCalls: number;
  /** The root chain's resume block, and the lowest block Ponder's sync of the resumed index asked logs for there. */
  rootResumeBlock: number;
  lowestLogsBlock: number | null;
  /** The label prefetch's eth_getLogs below the resume block (0: it starts at the resume block of a resumed index). */
  prefetchCallsBelowResume: number;
  tablesEqual: number;
  tables: number;
  /** Every difference between the resumed index and the cold one (empty when the run passed). */
  differences: string[];
}

const f = (n: number) => n.toFixed(1);

const registryAbi = parseAbi([
  "function setSubnodeOwner(bytes32 node, bytes32 label, address owner) returns (bytes32)",
]);

export async function snapshotRun(options: {
  chains: RehearsalChains;
  proxies: Map<number, HostedRpc>;
  /** startIndexer's options without a database target (the rehearsal's env, without END_BLOCK_*). */
  indexer: Omit<IndexerOptions, "reuse" | "schema">;
  workDir: string;
  /** Makes a new, empty PostgreSQL database (dropped by the caller) and returns its URL. */
  newDatabase: (tag: string) => Promise<string>;
  moreBlocks: number;
  sampleNames: number;
  log: (line: string) => void;
}): Promise<SnapshotRunResult> {
  const { chains, proxies, workDir, log } = options;
  const database = options.indexer.database;
  const nodeUrls = [...chains.nodes.values()].map((n) => n.url);
  const target = async (tag: string): Promise<IndexerOptions["reuse"]> =>
    database === "postgres"
      ? { databaseUrl: await options.newDatabase(tag) }
      : { pgliteDirectory: join(workDir, `pglite-${tag}`) };
  const callCount = () =>
    [...proxies.values()].reduce((sum, p) => sum + Object.values(p.calls()).reduce((a, b) => a + b, 0), 0);
  const resetCalls = () => {
    for (const p of proxies.values()) p.resetCounters();
  };
  const running: RunningIndexer[] = [];
  const closers: (() => Promise<void>)[] = [];
  const file = join(workDir, "index.snapshot");
  try {
    // The publisher: an index that has reached the heads and follows them.
    const source = await startIndexer({ ...options.indexer, reuse: await target("source") });
    running.push(source);
    await source.process.ready();
    await syncClocksAndWaitRealtime(nodeUrls, source.url);
    if (database === "pglite") {
      // PGlite is one process: its directory is snapshotted once the indexer is stopped and its lock has aged.
      await source.process.stop();
      await new Promise((r) => setTimeout(r, 31_000));
    }
    await createSnapshot(buildConfig(source.env), file, (line) => log(line));
    const sizeMiB = statSync(file).size / 2 ** 20;
    await source.stop();
    running.splice(running.indexOf(source), 1);

    await moveChainsOn(chains, nodeUrls, options.moreBlocks);

    // The operator: restore into an empty target, verified against their RPC (the imitation), then ponder start.
    const restoredTarget = await target("restored");
    if (restoredTarget?.pgliteDirectory) mkdirSync(restoredTarget.pgliteDirectory, { recursive: true });
    const restoreEnv = {
      ...source.env,
      DATABASE_SCHEMA: "restored",
      ...(restoredTarget?.databaseUrl ? { DATABASE_URL: restoredTarget.databaseUrl } : {}),
      ...(restoredTarget?.pgliteDirectory ? { PGLITE_DIRECTORY: restoredTarget.pgliteDirectory } : {}),
    };
    resetCalls();
    const restoreStarted = Date.now();
    const report = await restoreSnapshot(buildConfig(restoreEnv), file, { sampleSize: options.sampleNames }, log);
    const restoreSeconds = (Date.now() - restoreStarted) / 1000;
    const verifyCalls = callCount();

    // The root chain's requests pass a recorder too: the blocks it asks logs for show whether history was fetched again.
    const rootId = rootChainOf(chains).chainId;
    const recorder = await startRecordingRpc(proxies.get(rootId)!.url);
    closers.push(() => recorder.close());
    const { manifest } = await readSnapshotFile(file);
    const rootResumeBlock = manifest.checkpoints.find((c) => c.chainId === rootId)?.resume?.number ?? 0;
    resetCalls();
    const catchUpStarted = Date.now();
    const resumed = await startIndexer({
      ...options.indexer,
      extraEnv: { ...options.indexer.extraEnv, [`RPC_URL_${rootId}`]: recorder.url },
      reuse: restoredTarget,
      schema: "restored",
    });
    running.push(resumed);
    await resumed.process.ready();
    await syncClocksAndWaitRealtime(nodeUrls, resumed.url);
    const catchUpSeconds = (Date.now() - catchUpStarted) / 1000;
    const syncCalls = recorder.calls.filter((c) => !isLabelPrefetch(c));
    const prefetchCallsBelowResume = recorder.calls.filter(
      (c) => isLabelPrefetch(c) && Number((c.params[0] as { fromBlock?: string }).fromBlock) < rootResumeBlock,
    ).length;
    const catchUpCalls = callCount();

    const cold = await startIndexer({ ...options.indexer, reuse: await target("cold") });
    running.push(cold);
    await cold.process.ready();
    // One more block on every chain, then both indexes past it: they describe the same final chains.
    await syncClocksAndWaitRealtime(nodeUrls, cold.url);
    await syncClocksAndWaitRealtime(nodeUrls, resumed.url);
    await settledStatus(resumed, 3_000, 120_000);
    await settledStatus(cold, 3_000, 120_000);
    const [resumedDump, coldDump] = await dumpBoth(database, resumed, cold);
    const differences = diffDumps(coldDump, resumedDump);
    const tables = Object.keys(coldDump).length;
    const unequal = new Set(differences.map((d) => d.split(":")[0]));
    return {
      database,
      sizeMiB,
      restoreSeconds,
      verifySeconds: report.seconds,
      verifyCalls,
      catchUpSeconds,
      catchUpCalls,
      rootResumeBlock,
      lowestLogsBlock: lowestLogsBlock(syncCalls),
      prefetchCallsBelowResume,
      tablesEqual: tables - unequal.size,
      tables,
      differences,
    };
  } catch (error) {
    // The indexers' folders go with stop(): say where each stood.
    for (const indexer of running) {
      const tail = readFileSync(indexer.logFile, "utf8").split("\n").slice(-15).join("\n");
      log(`--- last lines of ${indexer.schema}'s log ---\n${tail}`);
    }
    throw error;
  } finally {
    for (const indexer of running) await indexer.stop().catch(() => {});
    for (const close of closers) await close();
  }
}

function rootChainOf(chains: RehearsalChains): { chainId: number; contracts: { Registry: { address: Hex } } } {
  return (
    chains.env.devnet.manifest.datasources as unknown as {
      ensroot: { chainId: number; contracts: { Registry: { address: Hex } } };
    }
  ).ensroot;
}

/** New names on the root chain after the snapshot, then `blocks` more blocks on every chain. */
async function moveChainsOn(chains: RehearsalChains, nodeUrls: string[], blocks: number): Promise<void> {
  const ensroot = rootChainOf(chains);
  const rootUrl = chains.nodes.get(ensroot.chainId)!.url;
  const registry = ensroot.contracts.Registry.address;
  const [from] = await rpc<Hex[]>(rootUrl, "eth_accounts");
  for (let i = 0; i < 3; i++) {
    const data = encodeFunctionData({
      abi: registryAbi,
      functionName: "setSubnodeOwner",
      args: [`0x${"0".repeat(64)}`, keccak256(toHex(`after-snapshot-${i}`)), from!],
    });
    await rpc(rootUrl, "eth_sendTransaction", [{ from, to: registry, data, gas: "0x100000" }]);
    await rpc(rootUrl, "evm_mine", []);
  }
  // One second apart: the heads run at most `blocks` seconds ahead of the wall clock.
  for (const url of nodeUrls) await rpc(url, "anvil_mine", [toHex(blocks), toHex(1)]);
}

async function dumpBoth(
  database: "postgres" | "pglite",
  resumed: RunningIndexer,
  cold: RunningIndexer,
): Promise<[CanonicalDump, CanonicalDump]> {
  if (database === "postgres") {
    return await Promise.all([
      dumpPostgres(resumed.env.DATABASE_URL!, resumed.schema),
      dumpPostgres(cold.env.DATABASE_URL!, cold.schema),
    ]);
  }
  await resumed.process.stop();
  await cold.process.stop();
  return [
    await dumpPglite(resumed.pgliteDirectory!, resumed.schema),
    await dumpPglite(cold.pgliteDirectory!, cold.schema),
  ];
}

/** The rehearsal's line for a snapshot run. */
export function describeSnapshotRun(r: SnapshotRunResult): string {
  return `snapshot (${r.database}): ${f(r.sizeMiB)} MiB; restore ${f(r.restoreSeconds)} s; verify ${f(r.verifySeconds)} s, ${r.verifyCalls} RPC calls; catch-up ${f(r.catchUpSeconds)} s, ${r.catchUpCalls} RPC calls; ${r.tablesEqual}/${r.tables} tables equal; ${describeRefetch(r)}`;
}

/** Whether the resumed index fetched the root chain's logs from before the snapshot's resume block again. */
export function refetchedHistory(r: SnapshotRunResult): boolean {
  return r.lowestLogsBlock !== null && r.lowestLogsBlock < r.rootResumeBlock;
}

function describeRefetch(r: SnapshotRunResult): string {
  return refetchedHistory(r)
    ? `history fetched again: root-chain eth_getLogs from block ${r.lowestLogsBlock}, below the resume block ${r.rootResumeBlock}`
    : `no history fetched again (Ponder's root-chain eth_getLogs from block ${r.lowestLogsBlock ?? "-"}, resume block ${r.rootResumeBlock}; the label prefetch's calls below it: ${r.prefetchCallsBelowResume})`;
}
