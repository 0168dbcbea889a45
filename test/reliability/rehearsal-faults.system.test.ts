import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chainsOfShape } from "../../devnet/src/shape";
import { diffDumps, dumpPostgres } from "../../harness/canonical-dump";
import { type HostedRpc, type HostedRpcOptions, startHostedRpc } from "../../harness/hosted-rpc/hosted-rpc";
import { type IndexRunResult, indexToEnd } from "../../harness/index-run";
import { createDatabase, dropDatabase, startIndexer, waitFor } from "../../harness/indexer-harness";
import { type RehearsalChains, startRehearsalChains } from "../../harness/mainnet-chains/chains";
import { DEFAULT_PLUGIN_NAMES } from "../../src/plugins/names";
import { bySize, report } from "./support/scale";

/*
 * Issue #16, the real path under a hosted provider's faults: NAMESPACE=mainnet on mainnet-shaped chains (real chain
 * ids and addresses, genesis past the real start blocks), through the hosted-RPC imitation with eth_getLogs caps that
 * force Ponder to split ranges, 429 storms, 5xx answers, timeouts and a node lagging behind the head. The index must
 * equal the same scenario indexed in devnet mode straight from anvil; a SIGKILL during the backfill, then a restart
 * on the warm RPC cache, must end on that index too.
 */

// The sync makes ~150 requests per chain (blocks and merged filters drive it, not names), and each timeout is held
// past Ponder's 10 s, costing the sync seconds of wall: at CI size one per chain at most, every kind still injected.
const SIZE = bySize({
  ci: { names: 10, maxTimeouts: 1 },
  full: { names: 300, maxTimeouts: Number.POSITIVE_INFINITY },
});
const SEED = 1616;
const RUN_TIMEOUT_MS = 600_000;

/** A provider at its worst short of being down: every kind of refusal the sync must ride out. */
const HOSTILE: Omit<HostedRpcOptions, "upstream"> = {
  style: "alchemy",
  latencyMs: 5,
  jitterMs: 5,
  getLogsMaxResults: 25,
  // Below Ponder's starting limit of 20 requests/s per chain: a 429 storm it must back off from.
  maxRequestsPerSecond: 10,
  serverErrorRate: 0.03,
  timeoutRate: 0.03,
  maxTimeouts: SIZE.maxTimeouts,
  lagRate: 0.2,
  lagBlocks: 5,
  seed: SEED,
};
/** Base behind a QuickNode-style provider instead: a block-range cap, which Ponder learns from its error text. */
const HOSTILE_BY_CHAIN: Record<number, Partial<HostedRpcOptions>> = {
  8453: { style: "quicknode", getLogsMaxResults: undefined, getLogsMaxRange: 500_000 },
};

describe("the mainnet configuration through a hosted provider's faults (rehearsal chains)", () => {
  let chains: RehearsalChains;
  let clean: IndexRunResult;
  const proxies = new Map<number, HostedRpc>();
  const databases: string[] = [];
  const plugins = [...DEFAULT_PLUGIN_NAMES];

  const rehearsalEnv = () => ({
    NAMESPACE: "mainnet",
    LABEL_SET_ID: "demo",
    LABEL_SET_VERSION: "0",
    ...Object.fromEntries([...proxies].map(([id, p]) => [`RPC_URL_${id}`, p.url])),
    ...Object.fromEntries(Object.entries(chains.endBlocks).map(([id, b]) => [`END_BLOCK_${id}`, String(b)])),
  });
  const freshDatabase = async (tag: string) => {
    const name = `rehearsal_${tag}_${Date.now().toString(36)}`;
    databases.push(name);
    return createDatabase(name);
  };
  const injectedTotals = () => {
    const out: Record<string, number> = {};
    for (const p of proxies.values()) for (const [k, n] of Object.entries(p.injected())) out[k] = (out[k] ?? 0) + n;
    return out;
  };

  beforeAll(async () => {
    chains = await startRehearsalChains({ network: "mainnet", seed: SEED, names: SIZE.names });
    for (const [chainId, node] of chains.nodes)
      proxies.set(chainId, await startHostedRpc({ ...HOSTILE, ...HOSTILE_BY_CHAIN[chainId], upstream: node.url }));
    clean = await indexToEnd(
      "devnet mode",
      {
        manifestPath: chains.devnetManifestPath,
        labelsServiceUrl: chains.env.labelsUrl,
        plugins,
        database: "postgres",
        reuse: { databaseUrl: await freshDatabase("devnet") },
        extraEnv: Object.fromEntries(Object.entries(chains.endBlocks).map(([id, b]) => [`END_BLOCK_${id}`, String(b)])),
      },
      RUN_TIMEOUT_MS,
    );
  });

  afterAll(async () => {
    await clean?.indexer.stop();
    for (const p of proxies.values()) await p.close();
    await chains?.stop();
    for (const name of databases) await dropDatabase(name);
  });

  it(
    "indexes every table as devnet mode does, through result and range caps, 429s, 5xx, timeouts and a lagging node",
    async () => {
      for (const p of proxies.values()) p.resetCounters();
      const run = await indexToEnd(
        "through faults",
        {
          manifestPath: chains.devnetManifestPath,
          labelsServiceUrl: chains.env.labelsUrl,
          plugins,
          database: "postgres",
          reuse: { databaseUrl: await freshDatabase("faults") },
          extraEnv: rehearsalEnv(),
        },
        RUN_TIMEOUT_MS,
      );
      try {
        const injected = injectedTotals();
        report(
          "rehearsal-faults",
          `faults injected: ${JSON.stringify(injected)}; ${run.seconds.toFixed(1)} s against ${clean.seconds.toFixed(1)} s in devnet mode`,
        );
        // The faults must really have happened for the equality to mean anything.
        expect(injected.resultCap, "eth_getLogs answers refused for too many results").toBeGreaterThan(0);
        expect(injected.rangeCap, "eth_getLogs answers refused for too wide a block range").toBeGreaterThan(0);
        expect(injected.rateLimited, "429 answers").toBeGreaterThan(0);
        expect(injected.serverError, "5xx answers").toBeGreaterThan(0);
        expect(injected.timeout, "requests held past the client's timeout").toBeGreaterThan(0);
        expect(injected.lagging, "answers from the lagging node").toBeGreaterThan(0);
        expect(Object.keys(clean.dump).length).toBeGreaterThan(30);
        expect(clean.dump.domain!.rows, "the devnet-mode index has the scenario's domains").toBeGreaterThan(SIZE.names);
        expect(diffDumps(clean.dump, run.dump)).toEqual([]);
      } finally {
        await run.indexer.stop();
      }
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "after a SIGKILL during the backfill, a restart on the warm RPC cache ends on the same index",
    async () => {
      for (const p of proxies.values())
        p.configure({ serverErrorRate: 0, timeoutRate: 0, lagRate: 0, maxRequestsPerSecond: 0 });
      for (const p of proxies.values()) p.resetCounters();
      const databaseUrl = await freshDatabase("kill");
      const workDir = mkdtempSync(join(tmpdir(), "nameindex-rehearsal-kill-"));
      const indexer = await startIndexer({
        manifestPath: chains.devnetManifestPath,
        labelsServiceUrl: chains.env.labelsUrl,
        plugins,
        database: "postgres",
        reuse: { databaseUrl },
        extraEnv: rehearsalEnv(),
      });
      try {
        // Kill once every chain but one has finished fetching (their intervals are in ponder_sync) and before the index
        // is done: the ENS root chain, the longest history, is still fetching then. (With Arbitrum's and Scroll's
        // reverse-only chains, which finish first, "some chain finished" came too early to leave much in the cache.)
        const chainCount = chainsOfShape(chains.shape).length;
        const finished = () =>
          readFileSync(indexer.logFile, "utf8")
            .split("\n")
            .filter((l) => /Finished fetching backfill JSON-RPC data/.test(l)).length;
        await waitFor(
          async () => finished() >= chainCount - 1,
          300_000,
          "every chain's backfill fetch but one to finish",
        );
        const ready = await fetch(`${indexer.url}/ready`)
          .then((r) => r.status)
          .catch(() => 0);
        await indexer.kill();
        const beforeKill = Object.values(
          Object.fromEntries([...proxies].map(([id, p]) => [id, p.calls().eth_getLogs ?? 0])),
        ).reduce((a, b) => a + b, 0);
        for (const p of proxies.values()) p.resetCounters();
        await indexer.restart();
        await indexer.process.ready();
        const afterRestart = [...proxies.values()].reduce((a, p) => a + (p.calls().eth_getLogs ?? 0), 0);
        const dump = await dumpPostgres(databaseUrl, indexer.schema);
        report(
          "rehearsal-faults",
          `killed while /ready answered ${ready}; eth_getLogs ${beforeKill} before the kill, ${afterRestart} after the restart`,
        );
        expect(ready, "the kill came during the backfill").not.toBe(200);
        expect(
          afterRestart,
          "the restart reads what the first run fetched from ponder_sync, not from the provider",
        ).toBeLessThan(beforeKill);
        expect(diffDumps(clean.dump, dump)).toEqual([]);
      } finally {
        await indexer.stop();
        rmSync(workDir, { recursive: true, force: true });
      }
    },
    RUN_TIMEOUT_MS,
  );
});
