import { closeSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_DEVNET_SHAPE_WITH_REVERSE_L2S } from "../../devnet/src/index";
import { type CanonicalDump, diffDumps, dumpPglite, dumpPostgres } from "../../harness/canonical-dump";
import { type DevnetWithLabels, rpc, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { type HostedRpc, startHostedRpc } from "../../harness/hosted-rpc/hosted-rpc";
import { indexerOptionsFor, type RunningIndexer, startIndexer, waitFor } from "../../harness/indexer-harness";
import { seededRandom } from "../../harness/seeded-random";
import { completedEventsByName } from "../../scripts/lib/peak-rss";
import { ponderFinalityBlocks } from "../../src/indexing/deep-reorg-guard";
import { DEFAULT_PLUGIN_NAMES } from "../../src/plugins/names";
import { EVENT_TABLES } from "../e2e/subgraph-compare";
import { type ChainReorg, ChainWorkload } from "./support/chain-workload";
import { compareWithFinalChains } from "./support/final-chain-events";
import { reorgMetric, reorgsLogged } from "./support/follow-head";
import { bySize, report } from "./support/scale";

/*
 * Issue #32: every devnet chain (ENS root, Base-like, Linea-like, and two chains with only an L2 reverse registrar)
 * makes blocks on its own clock with registrations, transfers, resolver records and primary-name changes, and
 * reorganizes at seeded random times (depth 1 to finality - 1, sometimes two chains at once, sometimes the same range
 * twice; the new branch drops, changes and re-orders the old one's actions) while an indexer with every plugin follows
 * them under omnichain ordering, through the hosted-RPC imitation (a lagging node, 5xx answers) or straight from anvil,
 * and is SIGKILLed and restarted now and then, once right as it reconciles a reorg. At the end the index must equal
 * a fresh index of the final chains table by table, and the events Ponder counts must equal the chains' logs.
 */

interface Run {
  database: "postgres" | "pglite";
  provider: "hosted" | "direct";
  reorgs: number;
  kills: number;
}

const SEED = 32;
const RUNS: Run[] = bySize<Run[]>({
  ci: [{ database: "postgres", provider: "hosted", reorgs: 10, kills: 2 }],
  full: [
    { database: "postgres", provider: "hosted", reorgs: 100, kills: 5 },
    { database: "pglite", provider: "hosted", reorgs: 100, kills: 5 },
    { database: "postgres", provider: "direct", reorgs: 25, kills: 2 },
  ],
});
/** Milliseconds between reorg rounds (uniform), and each chain's block time (its own, ± 30 %). */
const REORG_GAP_MS = bySize({ ci: [500, 3500], full: [300, 1500] });
const BLOCK_MS: Record<number, number> = { 31337: 1200, 31338: 1000, 31339: 1500, 31340: 1300, 31341: 1700 };
const PLUGINS = [...DEFAULT_PLUGIN_NAMES];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Mines blocks on every chain, each on its own clock, until stopped. */
function produceBlocks(workloads: ChainWorkload[], random: () => number): { stop(): Promise<void> } {
  let running = true;
  const loops = workloads.map(async (w) => {
    while (running) {
      await w.mineBlock();
      await sleep(BLOCK_MS[w.chainId]! * (0.7 + random() * 0.6));
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

type Status = Record<string, { id: number; block: { number: number } }>;

async function status(url: string): Promise<Status | undefined> {
  const res = await fetch(`${url}/status`).catch(() => undefined);
  return res?.ok ? ((await res.json()) as Status) : undefined;
}

/**
 * Two empty blocks on every chain after the latest block of any, at the same two timestamps: under omnichain ordering
 * every earlier event is then indexable. Returns each chain's head.
 */
async function closeChains(workloads: ChainWorkload[]): Promise<Map<number, number>> {
  const latest = Math.max(
    Math.floor(Date.now() / 1000),
    ...(await Promise.all(workloads.map((w) => w.chain.latestTimestamp()))),
  );
  const heads = new Map<number, number>();
  for (const offset of [1, 2]) {
    for (const w of workloads) {
      await w.chain.setNextBlockTimestamp(latest + offset);
      await w.chain.mineEmpty(1);
    }
  }
  for (const w of workloads) heads.set(w.chainId, await w.head());
  return heads;
}

/** Until every chain's checkpoint is at its head or the block before, and /status stopped changing for 5 s. */
async function settle(indexer: RunningIndexer, heads: Map<number, number>, what: string): Promise<Status> {
  let last = "";
  let since = Date.now();
  let seen: Status | undefined;
  await waitFor(
    async () => {
      if (indexer.process.child.exitCode !== null) throw new Error("exited");
      seen = await status(indexer.url);
      const text = JSON.stringify(seen);
      if (text !== last) [last, since] = [text, Date.now()];
      const atHeads = seen !== undefined && Object.values(seen).every((c) => c.block.number >= heads.get(c.id)! - 1);
      return atHeads && Date.now() - since > 5_000;
    },
    300_000,
    `${what}: checkpoints at the chains' heads ${JSON.stringify(Object.fromEntries(heads))}`,
  ).catch((error: Error) => {
    throw new Error(`${error.message}; /status ${last}; log tail:\n${logTail(indexer)}`);
  });
  return seen!;
}

function logTail(indexer: RunningIndexer, lines = 40): string {
  return readFileSync(indexer.logFile, "utf8")
    .split("\n")
    .filter((l) => !/Indexed block|Received new head block|Detected duplicate/.test(l))
    .slice(-lines)
    .join("\n");
}

/** Resolves once the indexer's log, past `from`, has a line with `text` (or after `timeoutMs`: false). */
async function logShows(indexer: RunningIndexer, from: number, text: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (readFileSync(indexer.logFile, "utf8").slice(from).includes(text)) return true;
    await sleep(10);
  }
  return false;
}

const logSize = (indexer: RunningIndexer) => statSync(indexer.logFile).size;

/**
 * Until Ponder's local chain (its debug line "Added block to local chain") holds block `number` of `chain`, so a reorg
 * made then replaces blocks it followed; false after `timeoutMs` (it is behind: the reorg goes ahead anyway). Reads
 * the log from where the last call stopped.
 */
function localChainWatcher(
  indexer: RunningIndexer,
): (chain: string, number: number, timeoutMs: number) => Promise<boolean> {
  let offset = 0;
  let file = indexer.logFile;
  const highest = new Map<string, number>();
  return async (chain, number, timeoutMs) => {
    const deadline = Date.now() + timeoutMs;
    while (true) {
      if (file !== indexer.logFile) [file, offset] = [indexer.logFile, 0];
      const size = statSync(file).size;
      if (size > offset) {
        const fd = openSync(file, "r");
        const buffer = Buffer.alloc(size - offset);
        readSync(fd, buffer, 0, buffer.length, offset);
        closeSync(fd);
        const text = buffer.toString("utf8");
        const complete = text.lastIndexOf("\n") + 1;
        offset += Buffer.byteLength(text.slice(0, complete));
        for (const m of text.slice(0, complete).matchAll(/Added block to local chain chain=(\w+) number=(\d+)/g)) {
          highest.set(m[1]!, Math.max(highest.get(m[1]!) ?? 0, Number(m[2])));
        }
      }
      if ((highest.get(chain) ?? 0) >= number) return true;
      if (Date.now() > deadline) return false;
      await sleep(50);
    }
  };
}

async function dump(indexer: RunningIndexer): Promise<CanonicalDump> {
  if (indexer.env.DATABASE_URL) return dumpPostgres(indexer.env.DATABASE_URL, indexer.schema);
  await indexer.process.stop();
  return dumpPglite(indexer.pgliteDirectory!, indexer.schema);
}

/** Rows of the event tables (one per log) the fresh index has and the reorged one lacks. */
function eventRowsMissing(fresh: CanonicalDump, reorged: CanonicalDump): number {
  let missing = 0;
  for (const table of EVENT_TABLES) {
    const have = new Set(reorged[table]?.lines ?? []);
    missing += (fresh[table]?.lines ?? []).filter((l) => !have.has(l)).length;
  }
  return missing;
}

describe("multichain reorgs under omnichain ordering, with kills", () => {
  let env: DevnetWithLabels;
  let workloads: ChainWorkload[];
  const proxies = new Map<number, HostedRpc>();
  /** An indexer (PostgreSQL, straight from anvil) at the chains' heads, left by the last run. */
  let following: RunningIndexer | undefined;

  beforeAll(async () => {
    env = await startDevnetWithLabels({ seed: SEED, names: 12, shape: LOCAL_DEVNET_SHAPE_WITH_REVERSE_L2S });
    workloads = await ChainWorkload.forDevnet(env.devnet.manifest, seededRandom(SEED));
    for (const [id, chain] of Object.entries(env.devnet.manifest.chains)) {
      proxies.set(
        Number(id),
        await startHostedRpc({
          upstream: chain.rpcUrl,
          style: "alchemy",
          latencyMs: 5,
          jitterMs: 5,
          serverErrorRate: 0.05,
          timeoutRate: 0,
          lagRate: 0.35,
          lagBlocks: 3,
          seed: SEED + Number(id),
        }),
      );
    }
  }, 600_000);

  afterAll(async () => {
    await following?.stop();
    for (const p of proxies.values()) await p.close();
    await env?.stop();
  });

  for (const [runIndex, run] of RUNS.entries()) {
    it(
      `${run.database}, ${run.provider === "hosted" ? "through the lagging, erring hosted-RPC imitation" : "straight from anvil"}: ${run.reorgs} reorgs and ${run.kills} kills end in the final chains' index`,
      async () => {
        const random = seededRandom(SEED * 1000 + runIndex);
        const rpcEnv =
          run.provider === "hosted" ? Object.fromEntries([...proxies].map(([id, p]) => [`RPC_URL_${id}`, p.url])) : {};
        // Debug logs carry Ponder's "Detected reorg" and "Reconciled reorg" lines.
        const indexer = await startIndexer(
          indexerOptionsFor(env, {
            plugins: PLUGINS,
            database: run.database,
            extraEnv: { PONDER_LOG_LEVEL: "debug", ...rpcEnv },
          }),
        );
        let fresh: RunningIndexer | undefined;
        // Block times draw from their own stream: the reorg plan's draws then do not depend on how the two interleave.
        const producer = produceBlocks(workloads, seededRandom(SEED * 1000 + runIndex + 500));
        const reorgs: ChainReorg[] = [];
        const kills: string[] = [];
        try {
          await indexer.process.ready();
          // Kills spread over the run, after these reorg rounds: every other one (the first too) as Ponder handles a reorg.
          const killAfter = new Set(
            Array.from({ length: run.kills }, (_, i) =>
              Math.floor(((i + 0.5 + (random() - 0.5) * 0.8) * run.reorgs) / run.kills),
            ),
          );
          let killMode: "rollback" | "random" = "rollback";
          let restarted: Promise<void> = Promise.resolve();
          const localChain = localChainWatcher(indexer);
          /** Reorgs made once Ponder's local chain held at least the first block they replaced. */
          let followedReorgs = 0;
          // The first rounds go through every chain once (in a seeded order), so each chain reorganizes at least once.
          const firstOrder = shuffled(workloads, random);
          for (let roundIndex = 0; reorgs.length < run.reorgs; roundIndex++) {
            await sleep(REORG_GAP_MS[0] + random() * (REORG_GAP_MS[1] - REORG_GAP_MS[0]));
            // One chain, or two in the same second; sometimes the same range again shortly after.
            const others = shuffled(workloads, random);
            const lead = roundIndex < firstOrder.length ? firstOrder[roundIndex]! : others[0]!;
            const chosen = [lead, ...others.filter((w) => w !== lead)].slice(0, random() < 0.25 ? 2 : 1);
            const round = await Promise.all(
              chosen.map(async (w) => {
                const limit = await w.reorgDepthLimit(ponderFinalityBlocks(w.chainId));
                if (limit < 1) return [];
                const depth = 1 + Math.floor(random() * limit);
                // Mostly once Ponder follows the blocks to be replaced (else it never sees them, only the new branch).
                if (await localChain(w.ponderName, (await w.head()) - depth + 1, 4_000)) followedReorgs += 1;
                const first = (await w.reorg({ depth }))!;
                if (random() >= 0.2) return [first];
                await sleep(300 + random() * 1200);
                const again = await w.reorg({ fork: first.fork, finality: ponderFinalityBlocks(w.chainId) });
                return again ? [first, again] : [first];
              }),
            );
            reorgs.push(...round.flat());
            if ([...killAfter].some((k) => k < reorgs.length) && indexer.process.child.exitCode === null) {
              await restarted;
              // One kill per round: a round that passed two planned kills leaves the second for the next round.
              killAfter.delete(Math.min(...killAfter));
              let moment: string;
              if (killMode === "rollback") {
                // Ponder sees a reorg only on blocks it already followed: try a few, each on a chain picked at random.
                moment = "no reorg detected after 4 tries";
                for (let attempt = 0; attempt < 4; attempt++) {
                  const w = workloads[Math.floor(random() * workloads.length)]!;
                  const limit = await w.reorgDepthLimit(ponderFinalityBlocks(w.chainId));
                  if (limit < 1) continue;
                  const from = logSize(indexer);
                  const r = (await w.reorg({ depth: 1 + Math.floor(random() * limit) }))!;
                  reorgs.push(r);
                  if (!(await logShows(indexer, from, "Detected reorg in local chain", 15_000))) continue;
                  const delay = Math.floor(random() * 60);
                  await sleep(delay);
                  const reconciled = readFileSync(indexer.logFile, "utf8")
                    .slice(from)
                    .includes("Reverted reorged database rows");
                  moment = `${delay} ms after Ponder detected a reorg (a ${r.depth}-block one on chain ${r.chainId} was the last made)${reconciled ? " (rows already reverted)" : " (before its rows were reverted)"}`;
                  break;
                }
              } else {
                await sleep(random() * 3000);
                moment = `at random (${reorgs.length} reorgs so far)`;
              }
              await indexer.kill();
              kills.push(moment);
              report("reorg-multichain", `${run.database}/${run.provider}: kill ${kills.length}: ${moment}`);
              killMode = killMode === "rollback" ? "random" : "rollback";
              // The chains go on reorganizing while it starts again; the next kill waits for it to be ready.
              await indexer.restart();
              restarted = indexer.process.ready().catch((error: Error) => {
                throw new Error(`${error.message}; log tail:\n${logTail(indexer)}`);
              });
              restarted.catch(() => undefined);
            }
            if (indexer.process.child.exitCode !== null)
              throw new Error(`ponder exited (code ${indexer.process.child.exitCode}); log tail:\n${logTail(indexer)}`);
          }
          await restarted;
          await producer.stop();
          const heads = await closeChains(workloads);
          const reorgedStatus = await settle(indexer, heads, "the reorged index");
          const reorgMetricTotal = await reorgMetric(indexer.url);
          const reorgsSeen = reorgsLogged(indexer).length;

          fresh = await startIndexer(indexerOptionsFor(env, { plugins: PLUGINS, database: "postgres" }));
          await fresh.process.ready();
          const freshStatus = await settle(fresh, heads, "the fresh index");
          const counted = await compareWithFinalChains(env.devnet.manifest, await completedEventsByName(fresh.url));
          const [expected, actual] = [await dump(fresh), await dump(indexer)];
          const differences = diffDumps(expected, actual);
          const tables = Object.keys(expected).length;
          const lost = counted.missing + eventRowsMissing(expected, actual);
          const depths = reorgs.map((r) => r.depth);
          const chains = new Set(reorgs.map((r) => r.chainId)).size;
          report(
            "reorg-multichain",
            `${run.database}/${run.provider}: heads ${JSON.stringify(Object.fromEntries(heads))}; ${workloads.map((w) => `${w.name} ${w.actionsMined} actions mined (${w.actionsSkipped} skipped)`).join(", ")}; ` +
              `${followedReorgs} of the reorgs replaced blocks Ponder had followed; Ponder reconciled ${reorgsSeen} reorgs (ponder_realtime_reorg_total since the last restart: ${reorgMetricTotal}); fresh index counted ${counted.counted} events, the final chains hold ${counted.onChains} of them; ` +
              `kills: ${kills.join("; ")}${differences.length > 0 ? `; DIFFERENCES: ${differences.join(" | ")}` : ""}${counted.differences.length > 0 ? `; EVENT COUNTS: ${counted.differences.join(" | ")}` : ""}`,
          );
          console.log(
            `[reliability:reorg-multichain] ${reorgs.length} reorgs (depths ${Math.min(...depths)}–${Math.max(...depths)}) on ${chains} chains, ${kills.length} kills, ` +
              `${run.database}${run.provider === "hosted" ? " via hosted RPC" : " direct"}: ${tables - differences.length}/${tables} tables equal, ${lost} events lost`,
          );
          expect(freshStatus).toEqual(reorgedStatus);
          expect(differences).toEqual([]);
          expect(counted.differences).toEqual([]);
          expect(lost).toBe(0);
          expect(reorgs.length).toBeGreaterThanOrEqual(run.reorgs);
          expect(kills.length).toBe(run.kills);
          expect(chains).toBe(workloads.length);
          expect(expected.domain?.rows ?? 0).toBeGreaterThan(20);
        } finally {
          await producer.stop();
          // The last run's fresh index follows the heads on: the check beyond finality below reuses it.
          if (runIndex === RUNS.length - 1 && fresh?.process.child.exitCode === null) following = fresh;
          else await fresh?.stop();
          await indexer.stop();
        }
      },
      bySize({ ci: 900_000, full: 3_600_000 }),
    );
  }

  it("a reorg deeper than finality on an L2 chain stops the indexer with the chain and depth named", async () => {
    const indexer =
      following ?? (await startIndexer(indexerOptionsFor(env, { plugins: PLUGINS, database: "postgres" })));
    following = undefined;
    const producer = produceBlocks(workloads, seededRandom(SEED + 7));
    try {
      await indexer.process.ready();
      // The guard looks every 2 s: let it see the head, so the block 30 below it is the one it holds final.
      await sleep(6_000);
      const base = workloads.find((w) => w.chainId === 31338)!;
      const depth = ponderFinalityBlocks(base.chainId) + 10;
      const exited = new Promise<number | null>((resolve) =>
        indexer.process.child.once("exit", (code) => resolve(code)),
      );
      const r = (await base.reorg({ depth }))!;
      const code = await Promise.race([exited, sleep(60_000).then(() => "running" as const)]);
      const log = readFileSync(indexer.logFile, "utf8");
      const message = log.match(/Reorg deeper than finality on chain devnetBase[^\n"]*/)?.[0];
      report(
        "reorg-multichain",
        `beyond finality: a ${r.depth}-block reorg of devnetBase (fork at ${r.fork}) while the other chains advanced: indexer ${code === "running" ? "still running after 60 s" : `exited with code ${code}`}: ${message}`,
      );
      expect(code).toBe(1);
      // The guard may look while the chain is rolled back and not yet grown again: the block is "gone" then.
      expect(message).toMatch(
        /^Reorg deeper than finality on chain devnetBase \(31338\): block \d+ was 0x[0-9a-f]{64} and is now (0x[0-9a-f]{64}|gone): a reorg at least (\d+) blocks deep/,
      );
      const atLeast = Number(message!.match(/at least (\d+) blocks deep/)![1]);
      expect(atLeast).toBeGreaterThan(ponderFinalityBlocks(base.chainId));
      expect(atLeast).toBeLessThanOrEqual(depth);
    } finally {
      await producer.stop();
      await indexer.stop();
    }
  }, 400_000);
});

function shuffled<T>(items: T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
