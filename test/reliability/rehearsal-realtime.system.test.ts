import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diffDumps, dumpPostgres } from "../../harness/canonical-dump";
import { rpc } from "../../harness/devnet-fixture";
import {
  FAULT_FREE_REQUESTS_PER_SECOND,
  type HostedRpc,
  type HostedRpcOptions,
  startHostedRpc,
} from "../../harness/hosted-rpc/hosted-rpc";
import {
  createDatabase,
  dropDatabase,
  projectRoot,
  type RunningIndexer,
  startIndexer,
  waitFor,
} from "../../harness/indexer-harness";
import { type RehearsalChains, startRehearsalChains } from "../../harness/mainnet-chains/chains";
import { DEFAULT_PLUGIN_NAMES } from "../../src/plugins/names";
import { reorgMetric, waitForHead } from "./support/follow-head";
import { ReorgDriver } from "./support/reorg-scenario";
import { report } from "./support/scale";

/*
 * The real path while following the head: NAMESPACE=mainnet on mainnet-shaped chains (real chain ids, addresses and
 * start blocks) through a hosted provider whose load balancer sends a share of requests to a node a few blocks behind
 * (its "latest" is older, it knows no newer block, eth_getLogs past its head is refused or cut at its head) and
 * answers a share with 5xx. New blocks arrive on the root chain in rounds while both indexers follow. Once each shows
 * the head, the index must equal devnet mode's (straight from anvil, following the same blocks), and the provider's
 * lag must not look like a reorg: there was none.
 */

const SEED = 2323;
const NAMES = 10;
const ROUNDS = 4;
const RUN_TIMEOUT_MS = 600_000;
const ROOT_CHAIN_ID = 1;

/** Mines an empty block on every chain but the root chain every `ms` until stopped. */
function tickOtherChains(chains: RehearsalChains, ms: number): { stop(): Promise<void> } {
  const urls = Object.entries(chains.env.devnet.manifest.chains)
    .filter(([id]) => Number(id) !== ROOT_CHAIN_ID)
    .map(([, chain]) => chain.rpcUrl);
  let running = true;
  const loop = (async () => {
    while (running) {
      await Promise.all(urls.map((url) => rpc(url, "evm_mine")));
      await new Promise((r) => setTimeout(r, ms));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
    },
  };
}

/** Rethrows with the end of the indexer's log, which the harness deletes when it stops. */
const withLogTail =
  (indexer: RunningIndexer) =>
  (error: Error): never => {
    const log = readFileSync(indexer.logFile, "utf8");
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(join(ARTIFACTS, `rehearsal-realtime-${indexer.schema}.log`), log);
    const tail = log
      .split("\n")
      .filter((line) => !/Indexed block|Received new head block/.test(line))
      .slice(-40)
      .join("\n");
    throw new Error(`${error.message}\n--- end of ${indexer.url}'s log ---\n${tail}`);
  };

const ARTIFACTS = join(projectRoot, "test-artifacts");

const LAGGING: Omit<HostedRpcOptions, "upstream"> = {
  style: "alchemy",
  latencyMs: 5,
  jitterMs: 5,
  serverErrorRate: 0.05,
  timeoutRate: 0,
  lagRate: 0.35,
  lagBlocks: 3,
  seed: SEED,
};

describe("following the head through a lagging hosted provider (mainnet rehearsal chains)", () => {
  let chains: RehearsalChains;
  let driver: ReorgDriver;
  const proxies = new Map<number, HostedRpc>();
  const databases: string[] = [];
  const indexers: RunningIndexer[] = [];
  const plugins = [...DEFAULT_PLUGIN_NAMES];

  const freshDatabase = async (tag: string) => {
    const name = `realtime_${tag}_${Date.now().toString(36)}`;
    databases.push(name);
    return createDatabase(name);
  };
  /** An indexer following the rehearsal chains on a fresh database: devnet mode, or what `extraEnv` makes it. */
  const startOn = async (tag: string, extraEnv: Record<string, string> = {}) => {
    const indexer = await startIndexer({
      manifestPath: chains.devnetManifestPath,
      labelsServiceUrl: chains.env.labelsUrl,
      plugins,
      database: "postgres",
      reuse: { databaseUrl: await freshDatabase(tag) },
      extraEnv,
    });
    indexers.push(indexer);
    return indexer;
  };

  beforeAll(async () => {
    chains = await startRehearsalChains({ network: "mainnet", seed: SEED, names: NAMES });
    driver = await ReorgDriver.connect(chains.env.devnet.manifest, ROOT_CHAIN_ID);
  }, RUN_TIMEOUT_MS);

  afterAll(async () => {
    for (const indexer of indexers) await indexer.stop();
    for (const p of proxies.values()) await p.close();
    await chains?.stop();
    for (const name of databases) await dropDatabase(name);
  });

  for (const lagGetLogsBeyondHead of ["error", "truncate"] as const) {
    it(
      `keeps up with new blocks and ends equal to devnet mode, with no reorg (lagging node's eth_getLogs past its head: ${lagGetLogsBeyondHead})`,
      async () => {
        for (const p of proxies.values()) await p.close();
        proxies.clear();
        for (const [chainId, node] of chains.nodes)
          proxies.set(chainId, await startHostedRpc({ ...LAGGING, lagGetLogsBeyondHead, upstream: node.url }));

        const reference = await startOn(`devnet_${lagGetLogsBeyondHead}`);
        const rehearsal = await startOn(`mainnet_${lagGetLogsBeyondHead}`, {
          NAMESPACE: "mainnet",
          LABEL_SET_ID: "demo",
          LABEL_SET_VERSION: "0",
          // The imitation's rate cap (its default), as an operator sets their provider's.
          RPC_REQUESTS_PER_SECOND: String(FAULT_FREE_REQUESTS_PER_SECOND),
          ...Object.fromEntries([...proxies].map(([id, p]) => [`RPC_URL_${id}`, p.url])),
        });
        for (const indexer of [reference, rehearsal]) {
          await waitFor(
            async () => (await fetch(`${indexer.url}/ready`).catch(() => undefined))?.status === 200,
            RUN_TIMEOUT_MS,
            "the backfill to reach the head",
          );
        }

        // New blocks while both follow: registrations, resolver records and a transfer on the root chain, in rounds,
        // while the other chains keep making blocks as live chains do (omnichain ordering holds a block back until every
        // chain has passed its time).
        const ticker = tickOtherChains(chains, 700);
        const [, owner, other] = driver.accounts;
        for (const p of proxies.values()) p.resetCounters();
        const registered: string[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          const facts = await driver.playBranch({
            tag: `${lagGetLogsBeyondHead}${round}`,
            blocks: 4,
            ownNames: 1,
            sharedLabel: driver.freshLabel(),
            owner: round % 2 === 0 ? owner! : other!,
            transferTo: round % 2 === 0 ? other! : owner!,
          });
          registered.push(...facts.registered.map((r) => `${r.label}.eth`));
          await new Promise((r) => setTimeout(r, 1500));
        }
        const head = await driver.head();
        const seconds = await Promise.all([
          waitForHead(reference.url, head, "devnet mode").catch(withLogTail(reference)),
          waitForHead(rehearsal.url, head, "NAMESPACE=mainnet through the lagging provider").catch(
            withLogTail(rehearsal),
          ),
        ])
          .then(([referenceMs, rehearsalMs]) => ({ reference: referenceMs / 1000, rehearsal: rehearsalMs / 1000 }))
          .finally(() => ticker.stop());

        const lagged = [...proxies.values()].reduce((n, p) => n + (p.injected().lagging ?? 0), 0);
        const reorgs = await reorgMetric(rehearsal.url);
        const [expected, actual] = [
          await dumpPostgres(reference.env.DATABASE_URL!, reference.schema),
          await dumpPostgres(rehearsal.env.DATABASE_URL!, rehearsal.schema),
        ];
        report(
          "rehearsal-realtime",
          `${lagGetLogsBeyondHead}: ${ROUNDS} rounds to block ${head.number}; ${lagged} answers from the lagging node; head shown after ${seconds.rehearsal.toFixed(1)} s (devnet mode ${seconds.reference.toFixed(1)} s); ${reorgs} reorgs`,
        );
        expect(lagged, "answers from the lagging node while following").toBeGreaterThan(0);
        expect(expected.domain!.rows).toBeGreaterThan(NAMES);
        expect(registered.length).toBe(ROUNDS * 2);
        expect(diffDumps(expected, actual)).toEqual([]);
        expect(reorgs, "reorgs Ponder reconciled (ponder_realtime_reorg_total): a lagging node is not a reorg").toBe(0);
        for (const indexer of indexers.splice(0)) await indexer.stop();
      },
      RUN_TIMEOUT_MS,
    );
  }
});
