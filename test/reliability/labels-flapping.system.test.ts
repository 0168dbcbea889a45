import { once } from "node:events";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scenarioOf } from "../../devnet/src/index";
import { type CanonicalDump, diffDumps, dumpPostgres, summarizeDump } from "../../harness/canonical-dump";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { projectRoot, type RunningIndexer, startIndexer } from "../../harness/indexer-harness";
import { startPonder } from "../../scripts/lib/ponder-process";
import { findFreePort } from "../../scripts/lib/ports";
import { isNormalizedLabel, labelhashOf } from "../../src/lib/labels";
import { type LabelServiceFront, startLabelServiceFront } from "./support/label-service-front";
import { bySize, report } from "./support/scale";

/*
 * Issue #8, label service down or flapping during indexing: the indexer waits and retries, or stops with a clear
 * error; it never writes a name as unknown because the service was unreachable. Four indexes of one devnet:
 * clean; with the service restarting under the indexer and answering 503/500 on a share of heals; with wrong labels
 * for some hashes (rejected by labelhash verification); and with the service down past the retry budget, which
 * must stop the indexer, then resume to the clean index once the service is back.
 */

const SIZE = bySize({
  ci: { names: 12, maxFlaps: 6, flapMs: 1_500 },
  full: { names: 60, maxFlaps: 25, flapMs: 3_000 },
});
// A full-size flapping run spends minutes waiting out outages on a shared machine.
const TEST_TIMEOUT_MS = bySize({ ci: 300_000, full: 600_000 });
const PLUGINS = ["subgraph", "basenames", "lineanames"];
const SHORT_BUDGET_MS = 4_000;
const T = "labels-flapping";

function endBlockEnv(env: DevnetWithLabels): Record<string, string> {
  const blocks = (env.devnet.manifest.scenario as { blocks: Record<string, number> }).blocks;
  return Object.fromEntries(Object.entries(blocks).map(([chainId, block]) => [`END_BLOCK_${chainId}`, String(block)]));
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const allLines = (dump: CanonicalDump) => Object.values(dump).flatMap((t) => t.lines);

describe("label service flapping and down during indexing", () => {
  let env: DevnetWithLabels;
  const indexers: RunningIndexer[] = [];
  const fronts: LabelServiceFront[] = [];
  let common: Omit<Parameters<typeof startIndexer>[0], "labelsServiceUrl">;
  let clean: CanonicalDump;
  /** Hashes of every label the label set heals: none may end up in the index as `[hash]`. */
  let healable: Map<string, string>;

  async function index(
    labelsServiceUrl: string,
    extraEnv: Record<string, string> = {},
  ): Promise<{ indexer: RunningIndexer; dump: CanonicalDump; ms: number }> {
    const t0 = Date.now();
    const indexer = await startIndexer({ ...common, labelsServiceUrl, extraEnv: { ...common.extraEnv, ...extraEnv } });
    indexers.push(indexer);
    try {
      await indexer.process.ready();
    } catch (error) {
      console.error(readFileSync(indexer.logFile, "utf8").split("\n").slice(-30).join("\n"));
      throw error;
    }
    return { indexer, dump: await dumpPostgres(indexer.env.DATABASE_URL!, indexer.schema), ms: Date.now() - t0 };
  }

  const front = async (seed: number) => {
    const f = await startLabelServiceFront({ dbPath: env.labelsDbPath, seed });
    fronts.push(f);
    return f;
  };

  beforeAll(async () => {
    env = await startDevnetWithLabels({ seed: 21, names: SIZE.names });
    common = {
      manifestPath: env.devnet.manifestPath,
      plugins: PLUGINS,
      database: "postgres",
      extraEnv: endBlockEnv(env),
    };
    const scenario = scenarioOf(env.devnet.manifest);
    const unhealable = new Set(scenario.unhealableLabels);
    // A label that is not ENSIP-15 normalized is stored as its [labelhash] by design, healed or not.
    healable = new Map(
      scenario.labels
        .filter((l) => !unhealable.has(l) && isNormalizedLabel(l))
        .map((l) => [labelhashOf(l).slice(2), l]),
    );
    clean = (await index(env.labelsUrl)).dump;
  }, TEST_TIMEOUT_MS);

  afterAll(async () => {
    for (const i of indexers) await i.stop();
    for (const f of fronts) await f.close();
    await env?.stop();
  });

  it("the clean index heals every label of the set", () => {
    const unhealed = allLines(clean).filter((l) =>
      [...l.matchAll(/\[([0-9a-f]{64})\]/g)].some((m) => healable.has(m[1]!)),
    );
    report(T, `clean index: ${summarizeDump(clean)}; ${healable.size} healable labels`);
    expect(allLines(clean).length).toBeGreaterThan(100);
    expect(unhealed).toEqual([]);
  });

  it(
    "equals the clean index with the service restarting under it and answering 503/500 on a share of heals",
    async () => {
      const labels = await front(7);
      labels.setFaults({ unavailable: 0.1, error: 0.1 });
      // Every other heal request takes the service down with it, cutting every request in flight. Retries that came
      // in step (cut by one restart) would meet each restart together and fail every time: the healer jitters them.
      labels.onHeal = (n) => {
        if (n % 2 === 1 && labels.counts().flaps < SIZE.maxFlaps) void labels.flap(SIZE.flapMs);
      };
      // The default retry budget (120 s): flaps of a few seconds must be waited out, never indexed around.
      const run = await index(labels.url);
      const log = readFileSync(run.indexer.logFile, "utf8");
      const retries = log.split("\n").filter((l) => /label service at .*; retrying in \d+ ms/.test(l));
      const why = (re: RegExp) => retries.filter((l) => re.test(l)).length;
      const counts = labels.counts();
      report(
        T,
        `tried: ${counts.healRequests} heal requests, ${counts.flaps} stop/restarts of ${SIZE.flapMs} ms, ${counts.unavailable} answered 503, ` +
          `${counts.error} answered 500; the indexer logged ${retries.length} retries (refused/reset ${why(/ECONNREFUSED|ECONNRESET|socket hang up/)}, ` +
          `503 ${why(/answered 503/)}, 500 ${why(/answered 500/)}) and took ${Math.round(run.ms / 1000)} s`,
      );
      const differences = diffDumps(clean, run.dump);
      report(T, `held: the index ${differences.length === 0 ? "equals" : "DIFFERS from"} the clean one`);
      expect(counts.flaps).toBeGreaterThan(0);
      expect(retries.length).toBeGreaterThan(0);
      expect(differences).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "never indexes a wrong label: labelhash verification rejects it",
    async () => {
      const labels = await front(11);
      // Every fourth healable scenario label (not the structural ones every name passes through) comes back wrong.
      const targets = new Set(
        [...healable.entries()]
          .filter(([, l]) => l.length > 4 && !/^[0-9a-f]{40}$/.test(l) && !["base", "linea", "reverse"].includes(l))
          .filter((_, i) => i % 4 === 0)
          .map(([h]) => `0x${h}`),
      );
      labels.setFaults({ corrupt: (h) => targets.has(h) });
      const run = await index(labels.url);
      const log = readFileSync(run.indexer.logFile, "utf8");
      const corrupted = [...labels.corrupted.entries()];
      const rejected = corrupted.filter(([hash]) => log.includes(`for ${hash}, but its labelhash is`));
      const wrongInIndex = allLines(run.dump).filter((l) => l.includes("-wrong"));
      // Rows that mention a corrupted label (healed in the clean run), its hash, or a domain named with it differ by
      // design (a registration keyed by node carries only the label; such a domain's history has versions where its
      // name changed, so their number may differ too); the rest must not.
      const mentions = (line: string) =>
        corrupted.some(
          ([hash, label]) =>
            line.includes(hash.slice(2)) || new RegExp(`(^|[".\\[])${escapeRegExp(label)}($|[".\\]])`).test(line),
        );
      const domains = (clean.domain?.lines ?? []).filter(mentions).map((l) => (JSON.parse(l) as { id: string }).id);
      const touched = (line: string) => mentions(line) || domains.some((id) => line.includes(id));
      const strip = (dump: CanonicalDump) =>
        Object.fromEntries(Object.entries(dump).map(([t, d]) => [t, { lines: d.lines.filter((l) => !touched(l)) }]));
      const [a, b] = [strip(clean), strip(run.dump)];
      const untouchedDiffers = Object.keys(a)
        .filter((t) => a[t]!.lines.join("\n") !== b[t]?.lines.join("\n"))
        .map(
          (t) =>
            `${t} (${a[t]!.lines.find((l) => !b[t]?.lines.includes(l))} vs ${b[t]?.lines.find((l) => !a[t]!.lines.includes(l))})`,
        );
      report(
        T,
        `tried: ${labels.counts().corrupted} wrong answers for ${corrupted.length} labelhashes; held: ${rejected.length} rejected in the log, ` +
          `${wrongInIndex.length} wrong labels in the index, tables differing outside the corrupted names: [${untouchedDiffers.join(", ")}]`,
      );
      expect(corrupted.length).toBeGreaterThan(0);
      expect(rejected.map(([h]) => h)).toEqual(corrupted.map(([h]) => h));
      expect(wrongInIndex).toEqual([]);
      expect(untouchedDiffers).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "stops with an error naming the label service when it stays down past the retry budget, then resumes to the clean index",
    async () => {
      const labels = await front(13);
      // Down at the third heal request (healing has begun) and kept down: the retry budget runs out.
      labels.onHeal = (n) => {
        if (n < 3) return;
        labels.onHeal = undefined;
        void labels.down();
      };
      const t0 = Date.now();
      const indexer = await startIndexer({
        ...common,
        labelsServiceUrl: labels.url,
        extraEnv: { ...common.extraEnv, LABELS_RETRY_BUDGET_MS: String(SHORT_BUDGET_MS) },
      });
      indexers.push(indexer);
      const [code] = (await Promise.race([
        once(indexer.process.child, "exit"),
        new Promise((_, reject) => setTimeout(() => reject(new Error("the indexer did not stop")), 180_000)),
      ])) as [number | null];
      const stoppedAfter = Date.now() - t0;
      const log = readFileSync(indexer.logFile, "utf8");
      const failure = log.split("\n").find((l) => /LabelHealingError|label service at .* unreachable/.test(l));
      report(
        T,
        `tried: service down from the third heal request on, budget ${SHORT_BUDGET_MS} ms; held: the indexer exited with code ${code} after ${Math.round(stoppedAfter / 1000)} s: ${failure?.trim().slice(0, 300)}`,
      );
      expect(code).not.toBe(0);
      expect(log).toMatch(
        new RegExp(`label service at ${escapeRegExp(labels.url)} unreachable: \\d+ attempts over \\d+ s failed`),
      );
      expect(log).toMatch(/start the label service \(or fix LABELS_SERVICE_URL \/ LABELS_DB\) and restart/);

      // What it wrote before stopping holds no name left unhealed for want of the service.
      const partial = await dumpPostgres(indexer.env.DATABASE_URL!, indexer.schema);
      const unhealed = allLines(partial).filter((l) =>
        [...l.matchAll(/\[([0-9a-f]{64})\]/g)].some((m) => healable.has(m[1]!)),
      );
      expect(unhealed).toEqual([]);

      // An API replica (`ponder serve`) keeps serving the partial index, and its _meta says the indexer stopped on an error.
      const replica = await indexer.startReplica();
      const hasIndexingErrors = async (url: string) => {
        const res = await fetch(`${url}/subgraph`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: "{ _meta { hasIndexingErrors } }" }),
        });
        return ((await res.json()) as { data: { _meta: { hasIndexingErrors: boolean } } }).data._meta.hasIndexingErrors;
      };
      expect(await hasIndexingErrors(replica.url)).toBe(true);

      await labels.up();
      const port = await findFreePort();
      const resumed = startPonder({
        projectRoot,
        command: "start",
        port,
        schema: indexer.schema,
        env: { ...indexer.env, PORT: String(port) },
        logFile: `${indexer.logFile}.resumed`,
      });
      try {
        await resumed.ready();
        expect(await hasIndexingErrors(resumed.url)).toBe(false);
        expect(await hasIndexingErrors(replica.url)).toBe(false);
        await replica.stop();
        const dump = await dumpPostgres(indexer.env.DATABASE_URL!, indexer.schema);
        const differences = diffDumps(clean, dump);
        report(
          T,
          `held: restarted with the service up, it completed; partial index had ${allLines(partial).length} rows, final index ${differences.length === 0 ? "equals" : "DIFFERS from"} the clean one`,
        );
        expect(differences).toEqual([]);
      } finally {
        await resumed.stop();
      }
    },
    TEST_TIMEOUT_MS,
  );
});
