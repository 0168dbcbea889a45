import { statSync } from "node:fs";
import pg from "pg";
import type { AppConfig } from "../src/config";
import { buildRecordOf } from "../src/indexing/build-record";
import { indexingCodeDigest } from "../src/indexing/code-digest";
import { DEFAULT_SAMPLE_CHUNKS } from "./chunk-sample";
import { readSnapshotFile } from "./container";
import { createPostgresSnapshot } from "./create-postgres";
import { DEFAULT_CHUNK_ROWS } from "./digest";
import { createPgliteSnapshot, openPglite, restorePgliteSnapshot } from "./pglite";
import { restorePostgresSnapshot } from "./restore-postgres";
import { RpcPool } from "./rpc";
import { fetchSnapshotSource } from "./source";
import { describeReport, type VerifyOptions, type VerifyReport, verifyBuildRecord, verifyRestored } from "./verify";

export { SnapshotError } from "./errors";
export type { SnapshotManifest } from "./manifest";
export type { VerifyOptions, VerifyReport } from "./verify";

/**
 * `npm run snapshot -- create <file> [--chunk-rows <rows>]`: the configured index (DATABASE_URL, DATABASE_SCHEMA)
 * into one file, each table cut into chunks of `chunkRows` rows.
 */
export async function createSnapshot(
  config: AppConfig,
  file: string,
  log: (line: string) => void,
  options: { chunkRows?: number } = {},
): Promise<void> {
  const rpc = new RpcPool(config.rpcUrls);
  const chunkRows = options.chunkRows ?? DEFAULT_CHUNK_ROWS;
  const manifest =
    config.database.kind === "postgres"
      ? await createPostgresSnapshot({
          connectionString: config.database.connectionString,
          schema: config.databaseSchema,
          file,
          rpc,
          chunkRows,
        })
      : await createPgliteSnapshot({
          directory: config.database.directory,
          schema: config.databaseSchema,
          file,
          rpc,
          chunkRows,
        });
  const rows = Object.values(manifest.tables).reduce((sum, t) => sum + t.rows, 0);
  const chunks = Object.values(manifest.tables).reduce((sum, t) => sum + t.chunks.length, 0);
  const blocks = manifest.checkpoints.map((c) => `${c.chainName} ${c.resume?.number ?? "-"}`).join(", ");
  log(
    `snapshot: ${file}, ${(statSync(file).size / 2 ** 20).toFixed(1)} MiB; ${Object.keys(manifest.tables).length} tables, ${rows} rows in ${chunks} chunks of ≤ ${chunkRows}; resumes at ${blocks}`,
  );
}

/**
 * `npm run snapshot -- restore <file|url>`: into the configured, empty target, verified before it is left there.
 * The build record is compared before anything is restored.
 */
export async function restoreSnapshot(
  config: AppConfig,
  source: string,
  options: { sampleSize: number; chunks?: VerifyOptions["chunks"] },
  log: (line: string) => void,
): Promise<VerifyReport> {
  return withSnapshotFile(config, source, async ({ file, manifest, payloadOffset }) => {
    const common = {
      file,
      payloadOffset,
      manifest,
      schema: config.databaseSchema,
      config,
      rpc: new RpcPool(config.rpcUrls),
      verify: verifyOptionsOf(options),
    };
    const report =
      config.database.kind === "postgres"
        ? await restorePostgresSnapshot({ ...common, connectionString: config.database.connectionString })
        : await restorePgliteSnapshot({ ...common, directory: config.database.directory });
    for (const line of report.reorged) log(`reorg across the checkpoint: ${line}`);
    for (const line of describeReport(report)) log(line);
    return report;
  });
}

/**
 * `npm run snapshot -- verify <file|url> [--full]`: checks the configured database's restored index against the
 * snapshot's manifest again, as restore did (`--full`: every chunk), reading only. Run it before `ponder start`, which
 * reverts the rows written after the resume checkpoint and then moves on.
 */
export async function verifySnapshot(
  config: AppConfig,
  source: string,
  options: { sampleSize: number; chunks?: VerifyOptions["chunks"] },
  log: (line: string) => void,
): Promise<VerifyReport> {
  return withSnapshotFile(config, source, async ({ manifest }) => {
    const verify = verifyOptionsOf(options);
    const rpc = new RpcPool(config.rpcUrls);
    const check = (db: Parameters<typeof verifyRestored>[0]) =>
      verifyRestored(db, config.databaseSchema, manifest, config, rpc, verify);
    let report: VerifyReport;
    if (config.database.kind === "postgres") {
      const client = new pg.Client({ connectionString: config.database.connectionString });
      await client.connect();
      report = await check(client).finally(() => client.end().catch(() => {}));
    } else {
      const db = await openPglite(config.database.directory);
      report = await check(db).finally(() => db.close());
    }
    for (const line of describeReport(report)) log(line);
    return report;
  });
}

const verifyOptionsOf = (options: { sampleSize: number; chunks?: VerifyOptions["chunks"] }) => ({
  sampleSize: options.sampleSize,
  chunks: options.chunks ?? DEFAULT_SAMPLE_CHUNKS,
});

/** The snapshot at `source` (a file or URL) read, its build record checked against this release's, then `use`d. */
async function withSnapshotFile<T>(
  config: AppConfig,
  source: string,
  use: (snapshot: { file: string } & Awaited<ReturnType<typeof readSnapshotFile>>) => Promise<T>,
): Promise<T> {
  const { file, cleanup } = await fetchSnapshotSource(source);
  try {
    const read = await readSnapshotFile(file, source);
    verifyBuildRecord(read.manifest, buildRecordOf(config, indexingCodeDigest()));
    return await use({ file, ...read });
  } finally {
    cleanup();
  }
}
