import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diffDumps, dumpPglite } from "../../harness/canonical-dump";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { indexerOptionsFor, type RunningIndexer, settledStatus, startIndexer } from "../../harness/indexer-harness";
import { createSnapshot, restoreSnapshot, SnapshotError } from "../../snapshot";
import { buildConfig } from "../../src/config";

/*
 * A PGlite index: snapshot of the stopped indexer's directory, restored into a new directory under another schema,
 * verified against the devnet, resumed by `ponder start`; its tables equal the source's. A non-empty directory is
 * refused and left as it was.
 */

const PLUGINS = ["subgraph", "protocol-acceleration", "registrars"];
const log = (line: string) => console.log(`[snapshot:pglite] ${line}`);

describe("PGlite snapshots", () => {
  let env: DevnetWithLabels;
  let source: RunningIndexer;
  let dir: string;
  const indexers: RunningIndexer[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "nameindex-snapshots-"));
    env = await startDevnetWithLabels({ seed: 5, names: 12 });
    source = await startIndexer(indexerOptionsFor(env, { plugins: PLUGINS, database: "pglite" }));
    indexers.push(source);
    await settledStatus(source, 3_000, 240_000);
    // PGlite is one process: a running indexer's directory is refused (and only a copy of it was opened).
    const running = await createSnapshot(buildConfig(source.env), join(dir, "running.snapshot"), log).catch(
      (e: unknown) => e,
    );
    expect(String(running)).toMatch(/is in use \(its indexer beat \d+ s ago\): stop the indexer, then snapshot/);
    await source.process.stop();
    // A stopped indexer whose lock is still set counts as stopped once its last heartbeat has aged past Ponder's lock
    // timeout (30 s). Ponder's shutdown on SIGTERM unlocks the schema (patches 029 and 030), so there is usually
    // nothing to wait for: a snapshot refused as "in use" says how long ago the indexer beat, and the wait is the rest.
    const probe = join(dir, "probe.snapshot");
    for (;;) {
      const refused = await createSnapshot(buildConfig(source.env), probe, log).then(
        () => undefined,
        (e: unknown) => e,
      );
      if (refused === undefined) break;
      const beat = String(refused).match(/is in use \(its indexer beat (\d+) s ago\)/);
      if (!beat) throw refused;
      log(`the stopped index's lock is still set (its last heartbeat ${beat[1]} s ago): waiting for it to age`);
      await new Promise((r) => setTimeout(r, Math.max(31 - Number(beat[1]), 1) * 1000));
    }
    rmSync(probe, { force: true });
  }, 600_000);

  afterAll(async () => {
    for (const indexer of indexers) await indexer.stop().catch(() => {});
    await env?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("snapshots a stopped index, restores it into a new directory, and ponder start resumes it", async () => {
    const file = join(dir, "pglite.snapshot");
    await createSnapshot(buildConfig(source.env), file, log);
    const expected = await dumpPglite(source.pgliteDirectory!, source.schema);

    const target = join(dir, "restored-pglite");
    const config = buildConfig({ ...source.env, PGLITE_DIRECTORY: target, DATABASE_SCHEMA: "restored" });
    const report = await restoreSnapshot(config, file, { sampleSize: 200 }, log);
    expect(report.checkpoints).toBe(3);
    expect(report.sampledNames).toBeGreaterThan(5);

    const busy = join(dir, "busy");
    mkdirSync(busy);
    writeFileSync(join(busy, "keep"), "x");
    const refused = await restoreSnapshot(
      buildConfig({ ...source.env, PGLITE_DIRECTORY: busy, DATABASE_SCHEMA: "restored" }),
      file,
      { sampleSize: 1 },
      log,
    ).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SnapshotError);
    expect((refused as SnapshotError).kind).toBe("target-not-empty");
    expect(readFileSync(join(busy, "keep"), "utf8")).toBe("x");

    const resumed = await startIndexer({
      ...indexerOptionsFor(env, { plugins: PLUGINS, database: "pglite" }),
      reuse: { pgliteDirectory: target },
      schema: "restored",
    });
    indexers.push(resumed);
    await settledStatus(resumed, 3_000, 180_000);
    expect(readFileSync(resumed.logFile, "utf8")).toContain("Detected crash recovery");
    await resumed.process.stop();
    expect(diffDumps(expected, await dumpPglite(target, "restored"))).toEqual([]);
  }, 600_000);
});
