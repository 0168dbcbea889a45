import { execFileSync } from "node:child_process";
import {
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diffDumps, dumpPostgres } from "../../harness/canonical-dump";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { indexBytes } from "../../harness/index-bytes";
import { indexerOptionsFor, type RunningIndexer, settledStatus, startIndexer } from "../../harness/indexer-harness";
import { startPrimary } from "../../harness/private-postgres";
import { findFreePort } from "../../scripts/lib/ports";
import { restoreSnapshot, SnapshotError } from "../../snapshot";
import { serverPrograms, serverUserFor, startClusterServer } from "../../snapshot/cluster-server";
import { CLUSTER_PAYLOAD, packDirectory } from "../../snapshot/create-cluster";
import { buildConfig } from "../../src/config";
import { forgeSnapshot, snapshotCli } from "../support/snapshot-files";

/*
 * A physical copy of a dedicated PostgreSQL cluster (`snapshot create --cluster`), taken while its indexer runs, restored
 * into a new data directory (`restore --pgdata`), verified there, started as a server, resumed by `ponder start`; its
 * tables equal the source's. Tampered copies are refused, each with its own message, and leave the directory empty.
 */

const PLUGINS = ["subgraph", "protocol-acceleration", "registrars"];
const DATABASE = "nameindex";
const log = (line: string) => console.log(`[snapshot:cluster] ${line}`);

describe("physical snapshots of a dedicated cluster", () => {
  let env: DevnetWithLabels;
  let source: RunningIndexer;
  let cluster: Awaited<ReturnType<typeof startPrimary>>;
  let dir: string;
  let good: string;
  /** What `create --cluster` printed. */
  let created: string;
  const indexers: RunningIndexer[] = [];
  const stops: (() => Promise<void>)[] = [];

  /** A new, absent data directory in `dir`. */
  const newDataDirectory = (name: string) => join(dir, name);
  const restoreInto = (target: string, file: string, schema = "restored", sampleSize = 200) =>
    restoreSnapshot(buildConfig({ ...source.env, DATABASE_SCHEMA: schema }), file, { sampleSize, pgdata: target }, log);
  async function refusal(file: string, target: string): Promise<SnapshotError> {
    const error = await restoreInto(target, file).then(
      () => {
        throw new Error(`${file} was restored`);
      },
      (e: unknown) => e,
    );
    if (!(error instanceof SnapshotError)) throw error;
    log(`${file}: ${error.kind}: ${error.message.slice(0, 300)}`);
    return error;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "nameindex-cluster-snapshots-"));
    // As an operator's data directories sit in one that the OS user running PostgreSQL owns.
    chownSync(dir, Number(execFileSync("id", ["-u", "postgres"]).toString()), -1);
    env = await startDevnetWithLabels({ seed: 11, names: 12 });
    cluster = await startPrimary(DATABASE);
    source = await startIndexer({
      ...indexerOptionsFor(env, { plugins: PLUGINS, database: "postgres" }),
      reuse: { databaseUrl: cluster.primary.url(DATABASE) },
      schema: "source",
    });
    indexers.push(source);
    await settledStatus(source, 3_000, 240_000);
    good = join(dir, "good.snapshot");
    // Taken while the indexer runs, as an operator takes it.
    const create = await snapshotCli(source.env, ["create", good, "--cluster"]);
    log(create.out.trim());
    expect(create.code).toBe(0);
    created = create.out;
  }, 600_000);

  afterAll(async () => {
    for (const indexer of indexers) await indexer.stop().catch(() => {});
    for (const stop of stops) await stop().catch(() => {});
    await cluster?.stop();
    await env?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("restores the running cluster's copy into a new data directory, verified; ponder start resumes it", async () => {
    const target = newDataDirectory("restored");
    const restored = await snapshotCli({ ...source.env, DATABASE_SCHEMA: "restored" }, [
      "restore",
      good,
      "--pgdata",
      target,
    ]);
    log(restored.out.trim());
    expect(restored.code).toBe(0);
    expect(restored.out).toMatch(
      /verify: \d+ tables of \d+ rows, \d+ chunks digested, 3 checkpoints, \d+ sampled names/,
    );
    expect(restored.out).toContain(`restore: start PostgreSQL 15 on ${target}`);
    // The publisher's server configuration never travels; the operator starts the copy with their own.
    for (const file of ["postgresql.conf", "pg_hba.conf", "postgresql.auto.conf", "postmaster.pid"]) {
      expect(existsSync(join(target, file)), file).toBe(false);
    }
    expect(readFileSync(join(target, "PG_VERSION"), "utf8").trim()).toBe("15");

    // A second restore into the same, now non-empty directory is refused and leaves it as it was; so is a restore of
    // the physical copy without --pgdata.
    const before = readdirSync(target).sort();
    expect((await refusal(good, target)).kind).toBe("target-not-empty");
    expect(readdirSync(target).sort()).toEqual(before);
    const withoutPgdata = await restoreSnapshot(buildConfig(source.env), good, { sampleSize: 1 }, log).catch(
      (e: unknown) => e,
    );
    expect(String(withoutPgdata)).toContain("restore it with --pgdata");

    const port = await findFreePort();
    const server = await startClusterServer(await serverPrograms(15), target, await serverUserFor(target), {
      tcpPort: port,
    });
    stops.push(() => server.stop());
    // The copy's index was compacted on the way (create says so): smaller on disk than the running source's, and row
    // for row the same (the dumps below).
    const restoredUrl = `postgresql://postgres@127.0.0.1:${port}/${DATABASE}`;
    const compacted = created.match(/index compacted \(VACUUM FULL\) from ([\d.]+) to ([\d.]+) MiB/);
    expect(Number(compacted?.[2])).toBeLessThan(Number(compacted?.[1]));
    expect(await indexBytes(restoredUrl, "restored")).toBeLessThan(
      await indexBytes(cluster.primary.url(DATABASE), "source"),
    );
    const resumed = await startIndexer({
      ...indexerOptionsFor(env, { plugins: PLUGINS, database: "postgres" }),
      reuse: { databaseUrl: restoredUrl },
      schema: "restored",
    });
    indexers.push(resumed);
    await settledStatus(resumed, 3_000, 180_000);
    expect(readFileSync(resumed.logFile, "utf8")).toContain("Detected crash recovery");
    const expected = await dumpPostgres(cluster.primary.url(DATABASE), "source");
    const actual = await dumpPostgres(restoredUrl, "restored");
    expect(diffDumps(expected, actual)).toEqual([]);
  }, 600_000);

  it("refuses an edited row (digests), a damaged payload (checksum) and another PostgreSQL major, leaving nothing", async () => {
    // The attacker's way: restore the genuine copy, change a row, pack the data directory again under the manifest.
    const scratch = newDataDirectory("scratch");
    await restoreInto(scratch, good, "source", 0);
    const user = await serverUserFor(scratch);
    const server = await startClusterServer(await serverPrograms(15), scratch, user);
    let edited: number | null;
    try {
      const db = await server.connect(DATABASE, "postgres");
      // Ponder's triggers (its live queries' and the reorg log's) stay out of the forger's way.
      await db.query("set session_replication_role = replica");
      edited = (
        await db.query(
          `update source.domain set label_name = 'forged' where id = (select id from source.domain where label_name is not null order by id limit 1)`,
        )
      ).rowCount;
      await db.end();
    } finally {
      await server.stop();
    }
    expect(edited).toBe(1);
    const packed = join(dir, "edited.tar.zst");
    await packDirectory(scratch, packed);
    await forgeSnapshot(good, join(dir, "edited.snapshot"), { parts: { [CLUSTER_PAYLOAD]: packed } });
    const editedTarget = newDataDirectory("edited");
    const digest = await refusal(join(dir, "edited.snapshot"), editedTarget);
    expect(digest.kind).toBe("digest");
    expect(digest.message).toMatch(/table index\.domain: the rows of chunk 1 of \d+ .* differ from the manifest's/);
    expect(readdirSync(editedTarget)).toEqual([]);

    // A tablespace link in the copy (the server would follow it out of the data directory) is refused before start.
    symlinkSync("/etc", join(scratch, "pg_tblspc", "99999"));
    await packDirectory(scratch, packed);
    await forgeSnapshot(good, join(dir, "linked.snapshot"), { parts: { [CLUSTER_PAYLOAD]: packed } });
    const linkedTarget = newDataDirectory("linked");
    const linked = await refusal(join(dir, "linked.snapshot"), linkedTarget);
    expect(linked.message).toMatch(/the copy holds a symbolic link \(.*pg_tblspc\/99999\): restore accepts none/);
    expect(readdirSync(linkedTarget)).toEqual([]);

    // One flipped byte in the payload: zstd, tar or, at the end, the sha256 refuses it.
    const damaged = join(dir, "damaged.snapshot");
    const bytes = readFileSync(good);
    bytes[bytes.length - 1000] = bytes[bytes.length - 1000]! ^ 0xff;
    writeFileSync(damaged, bytes);
    const damagedTarget = newDataDirectory("damaged");
    const checksum = await refusal(damaged, damagedTarget);
    expect(checksum.kind).toBe("payload");
    expect(readdirSync(damagedTarget)).toEqual([]);

    // A copy of another major version is refused before any byte of its payload is read.
    await forgeSnapshot(good, join(dir, "major.snapshot"), {
      manifest: (m) => {
        m.cluster!.major = 14;
      },
    });
    const majorTarget = newDataDirectory("major");
    const major = await refusal(join(dir, "major.snapshot"), majorTarget);
    expect(major.message).toContain("this physical copy needs PostgreSQL 14's server programs");
    expect(existsSync(majorTarget)).toBe(false);
  }, 600_000);
});
