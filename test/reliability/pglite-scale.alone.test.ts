import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CachedDevnet, startCachedDevnet } from "../../harness/cached-devnet";
import { type RunningIndexer, startIndexer } from "../../harness/indexer-harness";
import { completedEventsByName, watchPeakRss } from "../../scripts/lib/peak-rss";
import { PLUGIN_NAMES } from "../../src/plugins/names";
import { compareWithManifestCounts } from "./support/manifest-event-counts";
import { reliabilitySize, report } from "./support/scale";

/*
 * Issue 51, item 0: on the embedded default, a 50,000-name backfill died at 390,584 events (PGlite's protocol reader
 * and a row-cache prefetch binding more than 32,767 parameters: docs/patches.md, prefetch-keys-as-arrays). At the
 * size that found it, every plugin on PGlite must reach /ready having indexed every event the chains hold.
 *
 * Full size only (`npm run test:reliability`): playing the chains takes ~5 minutes once (then cached under
 * .cache/devnet-states/, shared with `npm run bench:scale`) and the backfill 15–25 minutes on two cores. `npm test`
 * proves the cause at unit size: test/plugins/row-cache-prefetch-size.test.ts.
 */

// The size that found the crash; PGLITE_SCALE_NAMES tries the test itself on a smaller devnet.
const NAMES = Number(process.env.PGLITE_SCALE_NAMES ?? 50_000);
const TXS_PER_BLOCK = 2_000; // bench:scale's default, so the two share the played chains

describe.runIf(reliabilitySize === "full")(`PGlite at ${NAMES} names, every plugin`, () => {
  let env: CachedDevnet;
  let indexer: RunningIndexer;
  beforeAll(async () => {
    env = await startCachedDevnet(1, NAMES, TXS_PER_BLOCK, (line) => report("pglite-scale", `devnet: ${line}`));
    indexer = await startIndexer({
      manifestPath: env.devnet.manifestPath,
      labelsServiceUrl: env.labelsUrl,
      plugins: [...PLUGIN_NAMES],
      database: "pglite",
      // The cached chains keep no past state: the resolver reads at an event's block could not be answered.
      extraEnv: { RESOLVER_READS: "false" },
    });
  }, 900_000);
  afterAll(async () => {
    await indexer?.stop();
    await env?.stop();
  });

  it("reaches /ready with every event of the chains indexed", async () => {
    const started = Date.now();
    const rss = watchPeakRss(indexer.process.child.pid!, 1000);
    try {
      await indexer.process.ready();
    } catch (error) {
      const log = readFileSync(indexer.logFile, "utf8");
      throw new Error(`${(error as Error).message}\n${log.slice(log.indexOf("ERROR")).slice(0, 4000)}`);
    }
    const seconds = (Date.now() - started) / 1000;
    const peak = rss.stop();
    const byName = await completedEventsByName(indexer.url);
    const events = Object.values(byName).reduce((a, b) => a + b, 0);
    const { differences, compared, nonEmpty, counted } = compareWithManifestCounts(env.devnet.manifest, byName);
    report(
      "pglite-scale",
      `${NAMES} names on PGlite: /ready after ${seconds.toFixed(0)} s, ${events} events (${Math.round(events / seconds)}/s), peak RSS ${peak.toFixed(0)} MiB; ${compared} event kinds (${nonEmpty} with logs on the chains) compared with the scenario's logs (${counted} events), ${differences.length} differ${differences.length ? `: ${differences.join(" | ")}` : ""}`,
    );
    expect(differences).toEqual([]);
    expect(nonEmpty).toBeGreaterThan(100);
    // ~24 events per name with every plugin (1,202,650 at 50,000 names).
    expect(events).toBeGreaterThan(NAMES * 20);
  }, 3_600_000);
});
