import { statSync } from "node:fs";
import pg from "pg";
import type { AppConfig } from "../src/config";
import { buildRecordOf } from "../src/indexing/build-record";
import { indexingCodeDigest } from "../src/indexing/code-digest";
import { DEFAULT_SAMPLE_CHUNKS } from "./chunk-sample";
import { readSnapshotHead, type SnapshotHead } from "./container";
import { createClusterSnapshot } from "./create-cluster";
import { createPostgresSnapshot } from "./create-postgres";
import { DEFAULT_CHUNK_ROWS } from "./digest";
import { SnapshotError } from "./errors";
import { createPgliteSnapshot, openPglite, restorePgliteSnapshot } from "./pglite";
import { restoreClusterSnapshot } from "./restore-cluster";
import { restorePostgresSnapshot } from "./restore-postgres";
import { RpcPool } from "./rpc";
import { openSnapshotSource } from "./source";
import {
  describeReport,
  type RestoreInput,
  type VerifyOptions,
  type VerifyReport,
  verifyBuildRecord,
  verifyRestored,
} from "./verify";

export { SnapshotError } from "./errors";
export type { SnapshotManifest } from "./manifest";
export type { VerifyOptions, VerifyReport } from "./verify";

/**
 * `npm run snapshot -- create <file> [--chunk-rows <rows>] [--cluster]`: the configured index (DATABASE_URL,
 * DATABASE_SCHEMA) into one file, each table cut into chunks of `chunkRows` rows; with `cluster`, a physical copy of
 * DATABASE_URL's whole cluster (create-cluster.ts), which must be dedicated to the index.
 */
export async function createSnapshot(
  config: AppConfig,
  file: string,
  log: (line: string) => void,
  options: { chunkRows?: number; cluster?: boolean; pgBin?: string } = {},
): Promise<void> {
  const rpc = new RpcPool(config.rpcUrls);
  const chunkRows = options.chunkRows ?? DEFAULT_CHUNK_ROWS;
  if (options.cluster && config.database.kind !== "postgres") {
    throw new SnapshotError("bad-manifest", "--cluster copies a PostgreSQL cluster: set DATABASE_URL");
  }
  const manifest =
    config.database.kind === "postgres"
      ? await (options.cluster ? createClusterSnapshot : createPostgresSnapshot)({
          log,
          pgBin: options.pgBin,
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
 * `npm run snapshot -- restore <file|url> [--pgdata <dir>]`: into the configured, empty target (or, a physical copy,
 * into the empty data directory `pgdata`) as the file is read (a URL is not stored first), verified before it is left
 * there. The build record is compared before anything is restored.
 */
export async function restoreSnapshot(
  config: AppConfig,
  source: string,
  options: { sampleSize: number; chunks?: VerifyOptions["chunks"]; pgdata?: string; pgBin?: string },
  log: (line: string) => void,
): Promise<VerifyReport> {
  return withSnapshotHead(config, source, log, async ({ manifest, payload }) => {
    const common: RestoreInput = {
      payload,
      label: source,
      manifest,
      schema: config.databaseSchema,
      config,
      rpc: new RpcPool(config.rpcUrls),
      verify: verifyOptionsOf(options),
      log,
    };
    if (manifest.payload.kind === "cluster-tar" && !options.pgdata) {
      throw new SnapshotError(
        "payload",
        "this snapshot is a physical copy of a PostgreSQL cluster: restore it with --pgdata <new data directory>",
      );
    }
    const report = options.pgdata
      ? await restoreClusterSnapshot({ ...common, directory: options.pgdata, pgBin: options.pgBin })
      : config.database.kind === "postgres"
        ? await restorePostgresSnapshot({ ...common, connectionString: config.database.connectionString })
        : await restorePgliteSnapshot({ ...common, directory: config.database.directory });
    for (const line of report.reorged) log(`reorg across the checkpoint: ${line}`);
    for (const line of describeReport(report)) log(line);
    return report;
  });
}

/**
 * `npm run snapshot -- verify <file|url> [--full]`: checks the configured database's restored index against the
 * snapshot's manifest again, as restore did (`--full`: every chunk), reading only; of the file it reads the manifest
 * (the payload was checked by restore). Run it before `ponder start`, which reverts the rows written after the resume
 * checkpoint and then moves on.
 */
export async function verifySnapshot(
  config: AppConfig,
  source: string,
  options: { sampleSize: number; chunks?: VerifyOptions["chunks"] },
  log: (line: string) => void,
): Promise<VerifyReport> {
  return withSnapshotHead(config, source, log, async ({ manifest }) => {
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

/**
 * The snapshot at `source` (a file or URL) opened and its head read (header, manifest), its build record checked
 * against this release's, then `use`d; the rest of the file is read only as far as `use` reads the payload.
 */
async function withSnapshotHead<T>(
  config: AppConfig,
  source: string,
  log: (line: string) => void,
  use: (snapshot: SnapshotHead) => Promise<T>,
): Promise<T> {
  const { bytes, totalBytes } = await openSnapshotSource(source, log);
  try {
    const head = await readSnapshotHead(bytes, source, totalBytes);
    verifyBuildRecord(head.manifest, buildRecordOf(config, indexingCodeDigest()));
    return await use(head);
  } finally {
    // Stops a download that was not read to its end (a refusal, or verify, which reads only the head).
    await bytes.return(undefined);
  }
}
