import { copyFileSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import {
  createDatabase,
  dropDatabase,
  indexerOptionsFor,
  type RunningIndexer,
  settledStatus,
  startIndexer,
} from "../../harness/indexer-harness";
import type { LoopbackServer } from "../../harness/loopback-server";
import { createSnapshot, restoreSnapshot, SnapshotError } from "../../snapshot";
import { WITHOUT_SYNC_HISTORY } from "../../snapshot/create-postgres";
import { runTool } from "../../snapshot/tools";
import { buildConfig } from "../../src/config";
import { forgeSnapshot, repackPostgresPayload, serveFolder, userSchemas } from "../support/snapshot-files";

/*
 * Snapshots of a PostgreSQL index taken while it runs, restored from a loopback HTTP server into new databases: the
 * genuine file restores and verifies; each tampered one is refused with its own message and leaves nothing behind.
 */

const PLUGINS = ["subgraph", "protocol-acceleration", "registrars"];
const log = (line: string) => console.log(`[snapshot:tamper] ${line}`);

describe("snapshot restore refuses tampered files", () => {
  let env: DevnetWithLabels;
  let indexer: RunningIndexer;
  let server: LoopbackServer;
  let dir: string;
  const databases: string[] = [];

  const configFor = (databaseUrl: string, schema = "restored") =>
    buildConfig({ ...indexer.env, DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema });

  async function newDatabase(): Promise<string> {
    const name = `snap_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6).toString(36)}`;
    databases.push(name);
    return await createDatabase(name);
  }

  /** Restores `file` (served over HTTP) into a new database; returns the refusal, and what the database holds after. */
  async function refusal(file: string): Promise<{ error: SnapshotError; left: string[] }> {
    const target = await newDatabase();
    const error = await restoreSnapshot(configFor(target), `${server.url}/${file}`, { sampleSize: 200 }, log).then(
      () => {
        throw new Error(`${file} was restored`);
      },
      (e: unknown) => e,
    );
    if (!(error instanceof SnapshotError)) throw error;
    log(`${file}: ${error.kind}: ${error.message.slice(0, 300)}`);
    return { error, left: await userSchemas(target) };
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "nameindex-snapshots-"));
    env = await startDevnetWithLabels({ seed: 42, names: 12 });
    indexer = await startIndexer(indexerOptionsFor(env, { plugins: PLUGINS, database: "postgres" }));
    await settledStatus(indexer, 3_000, 240_000);
    // Taken while the indexer runs.
    await createSnapshot(buildConfig(indexer.env), join(dir, "good.snapshot"), log);
    server = await serveFolder(dir);
  }, 600_000);

  afterAll(async () => {
    await server?.close();
    await indexer?.stop();
    await env?.stop();
    for (const name of databases) await dropDatabase(name);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("restores and verifies the genuine file from a URL", async () => {
    const target = await newDatabase();
    const report = await restoreSnapshot(configFor(target), `${server.url}/good.snapshot`, { sampleSize: 200 }, log);
    expect(report.tables).toBeGreaterThan(10);
    expect(report.rows).toBeGreaterThan(100);
    expect(report.checkpoints).toBe(3);
    expect(report.sampledNames).toBeGreaterThan(5);
    expect(report.rpcCalls).toBeGreaterThan(report.sampledNames);
    expect(await userSchemas(target)).toEqual(["ponder_sync", "restored"]);
    // A second restore into the same, now non-empty target is refused and leaves it as it was.
    const again = await restoreSnapshot(configFor(target), join(dir, "good.snapshot"), { sampleSize: 1 }, log).catch(
      (e: unknown) => e,
    );
    expect(again).toBeInstanceOf(SnapshotError);
    expect((again as SnapshotError).kind).toBe("target-not-empty");
    expect(await userSchemas(target)).toEqual(["ponder_sync", "restored"]);
  });

  it("refuses an edited row and a dropped table (digests), leaving the target empty", async () => {
    // The attacker's way: restore the genuine file, change the data, dump it again under the genuine manifest.
    const scratch = await newDatabase();
    const schema = indexer.schema;
    await restoreSnapshot(configFor(scratch, schema), join(dir, "good.snapshot"), { sampleSize: 0 }, log);
    const client = new pg.Client({ connectionString: scratch });
    await client.connect();
    const dump = async (name: string) => {
      await runTool("pg_dump", [
        "--format=custom",
        `--schema="${schema}"`,
        "--schema=ponder_sync",
        ...WITHOUT_SYNC_HISTORY,
        "--no-owner",
        `--file=${join(dir, name)}`,
        `--dbname=${scratch}`,
      ]);
    };
    try {
      // Ponder's live-query triggers on the restored tables write to a table only its own sessions have.
      await client.query("set session_replication_role = replica");
      const edit = (owner: string) =>
        client.query(
          `update "${schema}".domain set owner_id = $1 where id = (select min(id) from "${schema}".domain) returning (
          select owner_id from "${schema}".domain where id = (select min(id) from "${schema}".domain)) as before`,
          [owner],
        );
      const before = String((await edit("0x000000000000000000000000000000000000dead")).rows[0]?.before);
      await dump("edited.dump");
      await edit(before);
      await client.query(`drop table "${schema}".registration`);
      await dump("dropped.dump");
    } finally {
      await client.end();
    }
    await forgeSnapshot(join(dir, "good.snapshot"), join(dir, "edited.snapshot"), {
      payloadFile: await repackPostgresPayload(join(dir, "good.snapshot"), join(dir, "edited.dump"), dir),
    });
    await forgeSnapshot(join(dir, "good.snapshot"), join(dir, "dropped.snapshot"), {
      payloadFile: await repackPostgresPayload(join(dir, "good.snapshot"), join(dir, "dropped.dump"), dir),
    });

    const edited = await refusal("edited.snapshot");
    expect(edited.error.kind).toBe("digest");
    expect(edited.error.message).toContain("table index.domain: its rows' digest differs from the manifest's");
    expect(edited.left).toEqual([]);

    const dropped = await refusal("dropped.snapshot");
    expect(dropped.error.kind).toBe("digest");
    expect(dropped.error.message).toBe(
      "the restored tables differ from the manifest: table index.registration is missing from the restored data",
    );
    expect(dropped.left).toEqual([]);
  });

  it("refuses a wrong checkpoint hash", async () => {
    await forgeSnapshot(join(dir, "good.snapshot"), join(dir, "hash.snapshot"), {
      manifest: (m) => {
        m.checkpoints[0]!.resume = { number: m.checkpoints[0]!.resume!.number, hash: `0x${"ab".repeat(32)}` };
      },
    });
    const { error, left } = await refusal("hash.snapshot");
    expect(error.kind).toBe("checkpoint");
    expect(error.message).toMatch(/resume block \d+ is 0xabab.* in the snapshot and 0x[0-9a-f]{64} on your RPC/);
    expect(left).toEqual([]);
  });

  it("refuses another build record before restoring anything", async () => {
    await forgeSnapshot(join(dir, "good.snapshot"), join(dir, "build.snapshot"), {
      manifest: (m) => {
        m.buildRecord = { ...m.buildRecord, subgraphCompat: true, plugins: ["subgraph"] };
      },
    });
    const { error, left } = await refusal("build.snapshot");
    expect(error.kind).toBe("build-record");
    expect(error.message).toContain("PLUGINS was subgraph, now subgraph,protocol-acceleration,registrars");
    expect(error.message).toContain("SUBGRAPH_COMPAT was true, now false");
    expect(left).toEqual([]);
  });

  it("refuses a truncated file and a file that is not a snapshot", async () => {
    copyFileSync(join(dir, "good.snapshot"), join(dir, "truncated.snapshot"));
    truncateSync(join(dir, "truncated.snapshot"), 20_000);
    const truncated = await refusal("truncated.snapshot");
    expect(truncated.error.kind).toBe("truncated");
    expect(truncated.error.message).toMatch(/is truncated: the payload has \d+ of \d+ bytes/);
    expect(truncated.left).toEqual([]);

    writeFileSync(join(dir, "other.snapshot"), "PGDMP this is a pg_dump file, not a nameindex snapshot\n");
    const other = await refusal("other.snapshot");
    expect(other.error.kind).toBe("not-a-snapshot");
    expect(other.error.message).toContain('is not a nameindex snapshot (no "nameindex-snapshot/1" header)');
    expect(other.left).toEqual([]);
  });
});
