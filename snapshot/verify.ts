import type { AppConfig } from "../src/config";
import { type BuildRecord, describeChanges } from "../src/indexing/build-record";
import { verifyCheckpoints } from "./checkpoints";
import { digestTables } from "./digest";
import { SnapshotError } from "./errors";
import type { SnapshotManifest } from "./manifest";
import type { Queryable } from "./queryable";
import type { RpcPool } from "./rpc";
import { verifySample } from "./sample";

export interface VerifyReport {
  tables: number;
  rows: number;
  checkpoints: number;
  sampledNames: number;
  sampleChecks: number;
  rpcCalls: number;
  reorged: string[];
  seconds: number;
}

/** The build record the snapshot was made with against this process's settings; refuses naming every difference. */
export function verifyBuildRecord(manifest: SnapshotManifest, current: BuildRecord): void {
  const changes = describeChanges(manifest.buildRecord as Partial<BuildRecord>, current);
  if (changes.length > 0) {
    throw new SnapshotError(
      "build-record",
      `the snapshot was built with other settings that change indexed rows: ${changes.join("; ")}. ` +
        "Set the snapshot's settings, or index from scratch.",
    );
  }
}

/**
 * Everything restore checks before anything is served, in order of cost: the restored tables against the manifest's
 * digests, the checkpoints against the operator's RPC, then a sample of names against chain state (eth_call).
 */
export async function verifyRestored(
  db: Queryable,
  schema: string,
  manifest: SnapshotManifest,
  config: AppConfig,
  rpc: RpcPool,
  sampleSize: number,
): Promise<VerifyReport> {
  const started = Date.now();
  await db.query("begin isolation level repeatable read read only");
  try {
    const actual = await digestTables(db, schema, manifest.checkpoints);
    const problems: string[] = [];
    for (const name of new Set([...Object.keys(manifest.tables), ...Object.keys(actual)])) {
      const want = manifest.tables[name];
      const got = actual[name];
      if (!got) problems.push(`table ${name} is missing from the restored data`);
      else if (!want) problems.push(`table ${name} is not in the manifest`);
      else if (want.rows !== got.rows)
        problems.push(`table ${name} has ${got.rows} rows, the manifest says ${want.rows}`);
      else if (want.sha256 !== got.sha256) problems.push(`table ${name}: its rows' digest differs from the manifest's`);
    }
    if (problems.length > 0)
      throw new SnapshotError("digest", `the restored tables differ from the manifest: ${problems.join("; ")}`);
    const checkpoints = await verifyCheckpoints(manifest.checkpoints, rpc);
    if (checkpoints.problems.length > 0) {
      throw new SnapshotError(
        "checkpoint",
        `the snapshot's checkpoints are not on your chains: ${checkpoints.problems.join("; ")}`,
      );
    }
    const sample = await verifySample(db, schema, config, manifest, rpc, sampleSize);
    if (sample.problems.length > 0) {
      const shown = sample.problems.slice(0, 10).join("; ");
      throw new SnapshotError(
        "sample",
        `${sample.problems.length} of ${sample.checks} sampled values differ from chain state: ${shown}`,
      );
    }
    return {
      tables: Object.keys(actual).length,
      rows: Object.values(actual).reduce((sum, t) => sum + t.rows, 0),
      checkpoints: checkpoints.checked,
      sampledNames: sample.names,
      sampleChecks: sample.checks,
      rpcCalls: rpc.calls,
      reorged: checkpoints.reorged,
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    await db.query("rollback").catch(() => {});
  }
}

export function describeReport(r: VerifyReport): string {
  return `verify: ${r.tables} tables, ${r.rows} rows digested, ${r.checkpoints} checkpoints, ${r.sampledNames} sampled names (${r.sampleChecks} values), ${r.rpcCalls} RPC calls`;
}
