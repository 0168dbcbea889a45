import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  FAULT_FREE_REQUESTS_PER_SECOND,
  type HostedRpc,
  startFaultFreeProxies,
} from "../../harness/hosted-rpc/hosted-rpc";
import { createDatabase, dropDatabase } from "../../harness/indexer-harness";
import { type RehearsalChains, startRehearsalChains } from "../../harness/mainnet-chains/chains";
import { describeSnapshotRun, refetchedHistory, snapshotRun } from "../src/snapshot-run";

/*
 * Issue #42 on mainnet-shaped chains (NAMESPACE=mainnet, Ponder's RPC cache on, as an operator runs it; the devnet
 * namespace turns the cache off, so only here can a test see whether history is fetched again): an index following
 * the heads through a hosted provider's imitation is snapshotted, the chains move on, the snapshot is restored into a
 * new database and verified, `ponder start` catches up without fetching the history before the resume block again,
 * and its tables equal a cold index of the final chains.
 */

const NAMES = 10;
const PLUGINS = ["subgraph", "basenames", "lineanames", "protocol-acceleration", "registrars"];

describe(`a snapshot of a mainnet-shaped index (${NAMES} names, PostgreSQL)`, () => {
  let chains: RehearsalChains;
  let workDir: string;
  const proxies = new Map<number, HostedRpc>();
  const databases: string[] = [];

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), "nameindex-rehearsal-snapshot-"));
    chains = await startRehearsalChains({ network: "mainnet", seed: 3, names: NAMES });
    for (const [chainId, proxy] of await startFaultFreeProxies(chains.nodes, 3)) proxies.set(chainId, proxy);
  }, 300_000);

  afterAll(async () => {
    for (const p of proxies.values()) await p.close();
    await chains?.stop();
    for (const name of databases) await dropDatabase(name);
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it("restores, verifies, catches up from the resume block only, and equals a cold index", async () => {
    const rpcUrls = Object.fromEntries([...proxies].map(([id, p]) => [`RPC_URL_${id}`, p.url]));
    const result = await snapshotRun({
      chains,
      proxies,
      indexer: {
        manifestPath: chains.devnetManifestPath,
        labelsServiceUrl: chains.env.labelsUrl,
        plugins: PLUGINS,
        database: "postgres",
        // The imitation's rate cap, as an operator sets their provider's: Ponder's own start of 20 requests/s spent
        // ~25 s of each start on the unfinalized blocks.
        extraEnv: {
          NAMESPACE: "mainnet",
          LABEL_SET_ID: "demo",
          LABEL_SET_VERSION: "0",
          RPC_REQUESTS_PER_SECOND: String(FAULT_FREE_REQUESTS_PER_SECOND),
          ...rpcUrls,
        },
      },
      workDir,
      newDatabase: async (tag) => {
        const name = `rehearsal_snap_${tag}_${Date.now().toString(36)}`;
        databases.push(name);
        return await createDatabase(name);
      },
      moreBlocks: 20,
      sampleNames: 200,
      log: (line) => console.log(`[rehearsal:snapshot] ${line}`),
    });
    console.log(`[rehearsal:snapshot] ${describeSnapshotRun(result)}`);
    expect(result.differences).toEqual([]);
    expect(result.tablesEqual).toBe(result.tables);
    expect(result.tables).toBeGreaterThan(30);
    expect(result.verifyCalls).toBeGreaterThan(0);
    expect(result.catchUpCalls).toBeGreaterThan(0);
    // The resumed index asked for logs, but none from before the snapshot's resume block.
    expect(result.lowestLogsBlock).not.toBeNull();
    expect(refetchedHistory(result)).toBe(false);
  }, 900_000);
});
