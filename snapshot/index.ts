import { statSync } from "node:fs";
import type { AppConfig } from "../src/config";
import { buildRecordOf } from "../src/indexing/build-record";
import { indexingCodeDigest } from "../src/indexing/code-digest";
import { readSnapshotFile } from "./container";
import { createPostgresSnapshot } from "./create-postgres";
import { createPgliteSnapshot, restorePgliteSnapshot } from "./pglite";
import { restorePostgresSnapshot } from "./restore-postgres";
import { RpcPool } from "./rpc";
import { fetchSnapshotSource } from "./source";
import { describeReport, type VerifyReport, verifyBuildRecord } from "./verify";

export { SnapshotError } from "./errors";
export type { SnapshotManifest } from "./manifest";
export type { VerifyReport } from "./verify";

/** `npm run snapshot -- create <file>`: the configured index (DATABASE_URL, DATABASE_SCHEMA) into one file. */
export async function createSnapshot(config: AppConfig, file: string, log: (line: string) => void): Promise<void> {
  const rpc = new RpcPool(config.rpcUrls);
  const manifest =
    config.database.kind === "postgres"
      ? await createPostgresSnapshot({
          connectionString: config.database.connectionString,
          schema: config.databaseSchema,
          file,
          rpc,
        })
      : await createPgliteSnapshot({ directory: config.database.directory, schema: config.databaseSchema, file, rpc });
  const rows = Object.values(manifest.tables).reduce((sum, t) => sum + t.rows, 0);
  const blocks = manifest.checkpoints.map((c) => `${c.chainName} ${c.resume?.number ?? "-"}`).join(", ");
  log(
    `snapshot: ${file}, ${(statSync(file).size / 2 ** 20).toFixed(1)} MiB; ${Object.keys(manifest.tables).length} tables, ${rows} rows; resumes at ${blocks}`,
  );
}

/**
 * `npm run snapshot -- restore <file|url>`: into the configured, empty target, verified before it is left there.
 * The build record is compared before anything is restored.
 */
export async function restoreSnapshot(
  config: AppConfig,
  source: string,
  options: { sampleSize: number },
  log: (line: string) => void,
): Promise<VerifyReport> {
  const { file, cleanup } = await fetchSnapshotSource(source);
  try {
    const { manifest, payloadOffset } = await readSnapshotFile(file, source);
    verifyBuildRecord(manifest, buildRecordOf(config, indexingCodeDigest()));
    const common = {
      file,
      payloadOffset,
      manifest,
      schema: config.databaseSchema,
      config,
      rpc: new RpcPool(config.rpcUrls),
      sampleSize: options.sampleSize,
    };
    const report =
      config.database.kind === "postgres"
        ? await restorePostgresSnapshot({ ...common, connectionString: config.database.connectionString })
        : await restorePgliteSnapshot({ ...common, directory: config.database.directory });
    for (const line of report.reorged) log(`reorg across the checkpoint: ${line}`);
    log(describeReport(report));
    return report;
  } finally {
    cleanup();
  }
}
