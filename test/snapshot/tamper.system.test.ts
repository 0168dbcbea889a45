import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
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
import { createSnapshot, restoreSnapshot, SnapshotError, type VerifyOptions, verifySnapshot } from "../../snapshot";
import { readSnapshotFile } from "../../snapshot/container";
import { DUMP_SECTIONS, POSTGRES_PAYLOAD, WITHOUT_SYNC_HISTORY } from "../../snapshot/create-postgres";
import { runTool } from "../../snapshot/tools";
import { buildConfig } from "../../src/config";
import { forgeSnapshot, serveFolder, userSchemas } from "../support/snapshot-files";

/*
 * Snapshots of a PostgreSQL index taken while it runs, restored from a loopback HTTP server into new databases: the
 * genuine file restores and verifies; each tampered one is refused with its own message and leaves nothing behind.
 * A row changed where only the chunk sample can see it is caught at the rate restore prints, and always by --full.
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
  async function refusal(
    file: string,
    chunks?: VerifyOptions["chunks"],
  ): Promise<{ error: SnapshotError; left: string[] }> {
    const target = await newDatabase();
    const options = { sampleSize: 200, chunks };
    const error = await restoreSnapshot(configFor(target), `${server.url}/${file}`, options, log).then(
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
        ...DUMP_SECTIONS,
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
      parts: { [POSTGRES_PAYLOAD.dump]: join(dir, "edited.dump") },
    });
    await forgeSnapshot(join(dir, "good.snapshot"), join(dir, "dropped.snapshot"), {
      parts: { [POSTGRES_PAYLOAD.dump]: join(dir, "dropped.dump") },
    });

    const edited = await refusal("edited.snapshot");
    expect(edited.error.kind).toBe("digest");
    expect(edited.error.message).toBe(
      "the restored tables differ from the manifest: table index.domain: the rows of chunk 1 of 1 (keys from the lowest) differ from the manifest's",
    );
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

  it("refuses a chunk list that does not hash to its root, and another release's format, before restoring", async () => {
    await forgeSnapshot(join(dir, "good.snapshot"), join(dir, "root.snapshot"), {
      manifest: (m) => {
        m.tables["index.domain"]!.chunks[0]!.sha256 = "00".repeat(32);
      },
    });
    const root = await refusal("root.snapshot");
    expect(root.error.kind).toBe("bad-manifest");
    expect(root.error.message).toMatch(/root\.snapshot: table index\.domain's chunk list does not hash to its root$/);
    expect(root.left).toEqual([]);

    // The previous format's header on this file: a release that writes format 1 made it.
    const bytes = readFileSync(join(dir, "good.snapshot"));
    bytes.write("nameindex-snapshot/1", 0, "latin1");
    writeFileSync(join(dir, "format1.snapshot"), bytes);
    const format = await refusal("format1.snapshot");
    expect(format.error.kind).toBe("format");
    expect(format.error.message).toMatch(
      /format1\.snapshot is a nameindex-snapshot\/1 file; this release reads nameindex-snapshot\/3: snapshot the index again with this release$/,
    );
    expect(format.left).toEqual([]);

    // And format 2's (one tar that pg_restore read from disk), the layout this release replaced.
    bytes.write("nameindex-snapshot/2", 0, "latin1");
    writeFileSync(join(dir, "format2.snapshot"), bytes);
    const format2 = await refusal("format2.snapshot");
    expect(format2.error.kind).toBe("format");
    expect(format2.error.message).toMatch(/format2\.snapshot is a nameindex-snapshot\/2 file; this release reads/);
    expect(format2.left).toEqual([]);
  });

  it("resumes a download whose connection drops, with a Range request, and restores the file", async () => {
    const size = statSync(join(dir, "good.snapshot")).size;
    const { payloadOffset } = await readSnapshotFile(join(dir, "good.snapshot"));
    // Cut inside the payload: the head has been read and the load has begun when the connection drops.
    const cutAt = payloadOffset + Math.floor((size - payloadOffset) / 2);
    const cutting = await serveFolder(dir, { "good.snapshot": cutAt });
    try {
      const lines: string[] = [];
      const target = await newDatabase();
      const report = await restoreSnapshot(
        configFor(target),
        `${cutting.url}/good.snapshot`,
        { sampleSize: 20 },
        (line) => {
          lines.push(line);
          log(line);
        },
      );
      expect(cutting.requests).toEqual(["good.snapshot whole", `good.snapshot bytes=${cutAt}-`]);
      expect(lines).toContain(
        `download: the connection dropped at byte ${cutAt} of ${size} (terminated (other side closed)); resuming from there`,
      );
      expect(lines.some((l) => /^download: [\d.]+ MiB in [\d.]+ s, [\d.]+ MiB\/s$/.test(l))).toBe(true);
      expect(report.chunks.checked).toBe(report.chunks.total);
      expect(await userSchemas(target)).toEqual(["ponder_sync", "restored"]);
    } finally {
      await cutting.close();
    }
  });

  it("refuses to resume from a server that answers a Range request with the whole file, leaving the target empty", async () => {
    const size = statSync(join(dir, "good.snapshot")).size;
    const { payloadOffset } = await readSnapshotFile(join(dir, "good.snapshot"));
    const cutAt = payloadOffset + Math.floor((size - payloadOffset) / 2);
    // It says `Accept-Ranges: bytes`, then sends byte 0 again: appending that would corrupt the load.
    const ignoring = await serveFolder(dir, { "good.snapshot": cutAt }, true);
    try {
      const target = await newDatabase();
      const error = await restoreSnapshot(configFor(target), `${ignoring.url}/good.snapshot`, { sampleSize: 20 }, log)
        .then(() => new Error("restored"))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SnapshotError);
      expect((error as SnapshotError).kind).toBe("download");
      expect((error as SnapshotError).message).toBe(
        `${ignoring.url}/good.snapshot: asked to resume at byte ${cutAt}, the server answered HTTP 200: the file changed or the server does not resume`,
      );
      expect(ignoring.requests).toEqual(["good.snapshot whole", `good.snapshot bytes=${cutAt}-`]);
      expect(await userSchemas(target)).toEqual([]);
    } finally {
      await ignoring.close();
    }
  });

  it("refuses a payload changed where only its checksum sees it, after loading it, and leaves the target empty", async () => {
    // One digit of a table size in the post-data list: valid JSON and statements, so every part loads; only the
    // payload's sha256, known once the last byte has arrived, differs.
    const bytes = readFileSync(join(dir, "good.snapshot"));
    const at = bytes.lastIndexOf('"bytes":') + '"bytes":'.length;
    bytes[at] = bytes[at] === 0x31 ? 0x32 : 0x31;
    writeFileSync(join(dir, "corrupted.snapshot"), bytes);
    const { error, left } = await refusal("corrupted.snapshot");
    expect(error.kind).toBe("payload");
    expect(error.message).toMatch(
      /corrupted\.snapshot: the payload's sha256 is [0-9a-f]{64}, the manifest says [0-9a-f]{64}$/,
    );
    expect(left).toEqual([]);
  });

  it("refuses a truncated file and a file that is not a snapshot", async () => {
    copyFileSync(join(dir, "good.snapshot"), join(dir, "truncated.snapshot"));
    // Cut inside the payload, whatever the manifest's size (it grows with the chunk lists).
    const { payloadOffset } = await readSnapshotFile(join(dir, "good.snapshot"));
    truncateSync(join(dir, "truncated.snapshot"), payloadOffset + 20_000);
    const truncated = await refusal("truncated.snapshot");
    expect(truncated.error.kind).toBe("truncated");
    expect(truncated.error.message).toMatch(/is truncated: the payload has \d+ of \d+ bytes/);
    expect(truncated.left).toEqual([]);

    writeFileSync(join(dir, "other.snapshot"), "PGDMP this is a pg_dump file, not a nameindex snapshot\n");
    const other = await refusal("other.snapshot");
    expect(other.error.kind).toBe("not-a-snapshot");
    expect(other.error.message).toContain('is not a nameindex snapshot (no "nameindex-snapshot/3" header)');
    expect(other.left).toEqual([]);
  });

  it("catches a row changed where only the chunk sample looks, at the rate it prints; --full always", async () => {
    // Small chunks, so the domain table spans many; the cheap checks cannot see the change below.
    const file = join(dir, "chunked.snapshot");
    await createSnapshot(buildConfig(indexer.env), file, log, { chunkRows: 4 });
    const { manifest } = await readSnapshotFile(file);
    const n = manifest.tables["index.domain"]!.chunks.length;
    expect(n).toBeGreaterThanOrEqual(8);

    // The genuine file: every chunk read back by its key range (200 per table: all of them here), then read whole.
    const scratch = await newDatabase();
    const schema = indexer.schema;
    const genuine = await restoreSnapshot(configFor(scratch, schema), file, { sampleSize: 0 }, log);
    expect(genuine.chunks.checked).toBe(genuine.chunks.total);
    expect(genuine.chunks.unindexedTables).toBe(0);
    const full = await verifySnapshot(configFor(scratch, schema), file, { sampleSize: 0, chunks: "all" }, log);
    expect(full.chunks.checked).toBe(genuine.chunks.total);

    // The attack: a domain in the middle of the table shows another name; row counts, keys and chain state unchanged.
    const client = new pg.Client({ connectionString: scratch });
    await client.connect();
    let id: string;
    try {
      await client.query("set session_replication_role = replica");
      const edited = await client.query<{ id: string }>(
        `update "${schema}".domain set name = 'vitalik.eth' where id = (select id from "${schema}".domain
          order by id offset (select count(*) / 2 from "${schema}".domain) limit 1) returning id`,
      );
      id = edited.rows[0]!.id;
      await runTool("pg_dump", [
        "--format=custom",
        ...DUMP_SECTIONS,
        `--schema="${schema}"`,
        "--schema=ponder_sync",
        ...WITHOUT_SYNC_HISTORY,
        "--no-owner",
        `--file=${join(dir, "renamed.dump")}`,
        `--dbname=${scratch}`,
      ]);
    } finally {
      await client.end();
    }
    await forgeSnapshot(file, join(dir, "renamed.snapshot"), {
      parts: { [POSTGRES_PAYLOAD.dump]: join(dir, "renamed.dump") },
    });
    const chunks = manifest.tables["index.domain"]!.chunks;
    const tampered = chunks.findLastIndex((c, i) => i === 0 || c.first[0]! <= id);
    const caughtMessage = `the restored tables differ from the manifest: table index.domain: the rows of chunk ${tampered + 1} of ${n} (keys from ${JSON.stringify(chunks[tampered]!.first)}) differ from the manifest's`;

    // restore --full refuses it, naming the chunk.
    const refused = await refusal("renamed.snapshot", "all");
    expect(refused.error.kind).toBe("digest");
    expect(refused.error.message).toBe(caughtMessage);
    expect(refused.left).toEqual([]);

    // Without chunks every other check passes it: tables, roots, payload, checkpoints, the names against the chain.
    const target = await newDatabase();
    const accepted = await restoreSnapshot(
      configFor(target),
      `${server.url}/renamed.snapshot`,
      { sampleSize: 200, chunks: 0 },
      log,
    );
    expect(accepted.sampledNames).toBeGreaterThan(5);

    // The sampled check alone, again and again on the restored index: k of the table's n chunks per run.
    const k = Math.floor(n / 2);
    const printed: string[] = [];
    let caught = 0;
    const started = Date.now();
    for (let run = 0; run < RUNS; run++) {
      const outcome = await verifySnapshot(configFor(target), file, { sampleSize: 0, chunks: k }, (line) =>
        printed.push(line),
      ).catch((e: unknown) => e);
      if (outcome instanceof SnapshotError) {
        expect(outcome.message).toBe(caughtMessage);
        caught += 1;
      } else if (outcome instanceof Error) throw outcome;
    }
    const share = `${(Math.ceil((1 - 0.001 ** (1 / k)) * 1000) / 10).toFixed(1)} %`;
    const confidence = printed.find((l) => l.startsWith("chunks of 4 rows"));
    expect(confidence).toContain(
      `escapes with probability ≤ (1 − f)^${k}: a tampering of ≥ ${share} of a table's chunks is caught with probability ≥ 99.9 %`,
    );
    // One tampered chunk of n is the share f = 1/n: the printed bound says it is caught with at least this probability.
    const bound = 1 - (1 - 1 / n) ** k;
    log(
      `sampled verify, ${k} of ${n} domain chunks per run: caught ${caught} of ${RUNS} runs (${((100 * caught) / RUNS).toFixed(0)} %; printed bound ≥ ${(100 * bound).toFixed(1)} %, exact k/n = ${((100 * k) / n).toFixed(1)} %), ${((Date.now() - started) / RUNS).toFixed(0)} ms a run`,
    );
    log(confidence!);
    // Below the bound only by a chance of less than 1 in 10,000; never all runs (it samples, it does not read all).
    expect(caught).toBeGreaterThanOrEqual(fewestPlausible(RUNS, bound, 1e-4));
    expect(caught).toBeLessThan(RUNS);
    // 100 verifications: minutes on a machine shared with other jobs.
  }, 300_000);
});

const RUNS = 100;

/** The largest c with P(X < c) ≤ alpha for X ~ Binomial(runs, p): fewer catches than c would refute the bound. */
function fewestPlausible(runs: number, p: number, alpha: number): number {
  let below = 0;
  let term = (1 - p) ** runs;
  for (let c = 0; c <= runs; c++) {
    if (below + term > alpha) return c;
    below += term;
    term *= ((runs - c) / (c + 1)) * (p / (1 - p));
  }
  return runs;
}
