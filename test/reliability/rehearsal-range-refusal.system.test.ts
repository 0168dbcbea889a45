import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diffDumps } from "../../harness/canonical-dump";
import { type HostedRpc, startHostedRpc } from "../../harness/hosted-rpc/hosted-rpc";
import { type IndexRunResult, indexToEnd } from "../../harness/index-run";
import { createDatabase, dropDatabase, startIndexer, waitFor } from "../../harness/indexer-harness";
import { type RehearsalChains, startRehearsalChains } from "../../harness/mainnet-chains/chains";
import { DEFAULT_PLUGIN_NAMES } from "../../src/plugins/names";
import { report } from "./support/scale";

/*
 * A provider whose eth_getLogs range refusal Ponder cannot read: Infura's `range N exceeds limit of 10000`
 * (INFURA/infura#237; Ponder's retry helper knows Alchemy's, QuickNode's and others' messages, not this one). Ponder
 * then retries the same range until it gives up, and tells the operator to set `ethGetLogsBlockRange`; our config
 * takes it per chain as ETH_GETLOGS_BLOCK_RANGE_<chainId>. With it, NAMESPACE=mainnet through such a provider indexes
 * every table as devnet mode does.
 */

const SEED = 3737;
const NAMES = 10;
// Infura's limit is 10,000 blocks; a wider one refused the same way keeps the run short (the rehearsal chains' history
// below genesis is millions of blocks long: 13,138 requests at 10,000).
const LIMIT = 100_000;
const RUN_TIMEOUT_MS = 600_000;

describe("a provider whose eth_getLogs range refusal Ponder cannot read (Infura's)", () => {
  let chains: RehearsalChains;
  let clean: IndexRunResult;
  const proxies = new Map<number, HostedRpc>();
  const databases: string[] = [];
  const plugins = [...DEFAULT_PLUGIN_NAMES];

  const freshDatabase = async (tag: string) => {
    const name = `range_${tag}_${Date.now().toString(36)}`;
    databases.push(name);
    return createDatabase(name);
  };
  const endBlocks = () =>
    Object.fromEntries(Object.entries(chains.endBlocks).map(([id, b]) => [`END_BLOCK_${id}`, String(b)]));
  const mainnetEnv = (extra: Record<string, string> = {}) => ({
    NAMESPACE: "mainnet",
    LABEL_SET_ID: "demo",
    LABEL_SET_VERSION: "0",
    // This imitation has no rate cap; the range is the subject. Ponder's own start of 20 requests/s only slows it.
    RPC_REQUESTS_PER_SECOND: "300",
    ...Object.fromEntries([...proxies].map(([id, p]) => [`RPC_URL_${id}`, p.url])),
    ...endBlocks(),
    ...extra,
  });

  beforeAll(async () => {
    chains = await startRehearsalChains({ network: "mainnet", seed: SEED, names: NAMES });
    for (const [chainId, node] of chains.nodes) {
      proxies.set(
        chainId,
        await startHostedRpc({
          style: "infura",
          getLogsMaxRange: LIMIT,
          latencyMs: 2,
          jitterMs: 1,
          serverErrorRate: 0,
          timeoutRate: 0,
          maxRequestsPerSecond: 0,
          upstream: node.url,
        }),
      );
    }
    clean = await indexToEnd(
      "devnet mode",
      {
        manifestPath: chains.devnetManifestPath,
        labelsServiceUrl: chains.env.labelsUrl,
        plugins,
        database: "postgres",
        reuse: { databaseUrl: await freshDatabase("devnet") },
        extraEnv: endBlocks(),
      },
      RUN_TIMEOUT_MS,
    );
    await clean.indexer.stop();
  }, RUN_TIMEOUT_MS);

  afterAll(async () => {
    for (const p of proxies.values()) await p.close();
    await chains?.stop();
    for (const name of databases) await dropDatabase(name);
  });

  it(
    "without ETH_GETLOGS_BLOCK_RANGE, Ponder cannot read the refusal and says to set the range",
    async () => {
      const indexer = await startIndexer({
        manifestPath: chains.devnetManifestPath,
        labelsServiceUrl: chains.env.labelsUrl,
        plugins,
        database: "postgres",
        reuse: { databaseUrl: await freshDatabase("unset") },
        extraEnv: mainnetEnv(),
      });
      try {
        await waitFor(
          async () => /Use the ethGetLogsBlockRange option/.test(readFileSync(indexer.logFile, "utf8")),
          180_000,
          "Ponder's range tip in the log",
        );
        const refused = [...proxies.values()].reduce((n, p) => n + (p.injected().rangeCap ?? 0), 0);
        expect(refused, "range refusals answered").toBeGreaterThan(0);
        expect((await fetch(`${indexer.url}/ready`).catch(() => undefined))?.status ?? 0).not.toBe(200);
      } finally {
        await indexer.stop();
      }
    },
    RUN_TIMEOUT_MS,
  );

  it(
    `with ETH_GETLOGS_BLOCK_RANGE_<chainId>=${LIMIT} on every chain, indexes every table as devnet mode does`,
    async () => {
      for (const p of proxies.values()) p.resetCounters();
      const ranges = Object.fromEntries(
        [...proxies.keys()].map((id) => [`ETH_GETLOGS_BLOCK_RANGE_${id}`, String(LIMIT)]),
      );
      const run = await indexToEnd(
        "fixed range",
        {
          manifestPath: chains.devnetManifestPath,
          labelsServiceUrl: chains.env.labelsUrl,
          plugins,
          database: "postgres",
          reuse: { databaseUrl: await freshDatabase("fixed") },
          extraEnv: mainnetEnv(ranges),
        },
        RUN_TIMEOUT_MS,
      );
      try {
        const requests = [...proxies.values()].reduce((n, p) => n + (p.calls().eth_getLogs ?? 0), 0);
        const refused = [...proxies.values()].reduce((n, p) => n + (p.injected().rangeCap ?? 0), 0);
        report(
          "rehearsal-range-refusal",
          `${requests} eth_getLogs of at most ${LIMIT} blocks, ${refused} refused; ${run.seconds.toFixed(1)} s against ${clean.seconds.toFixed(1)} s in devnet mode`,
        );
        expect(refused, "no request wider than the provider allows").toBe(0);
        expect(clean.dump.domain!.rows).toBeGreaterThan(NAMES);
        expect(diffDumps(clean.dump, run.dump)).toEqual([]);
      } finally {
        await run.indexer.stop();
      }
    },
    RUN_TIMEOUT_MS,
  );
});
