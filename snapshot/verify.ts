import type { AppConfig } from "../src/config";
import { type BuildRecord, describeChanges } from "../src/indexing/build-record";
import { verifyCheckpoints } from "./checkpoints";
import { type ChunkCheck, checkChunks, describeChunkCheck } from "./chunk-sample";
import { digestTarget, tablesToDigest } from "./digest";
import { SnapshotError } from "./errors";
import type { SnapshotManifest } from "./manifest";
import type { Queryable } from "./queryable";
import type { RpcPool } from "./rpc";
import { verifySample } from "./sample";

/** How much restore and verify check: names against the chain, and chunks per table (or every chunk: `--full`). */
export interface VerifyOptions {
  sampleSize: number;
  chunks: number | "all";
}

/** What every restore is given: the snapshot's head and payload, the target schema, and how to verify it there. */
export interface RestoreInput {
  payload: AsyncIterator<Buffer>;
  /** The file or URL, as messages name it. */
  label: string;
  manifest: SnapshotManifest;
  schema: string;
  config: AppConfig;
  rpc: RpcPool;
  verify: VerifyOptions;
  log: (line: string) => void;
}

export interface VerifyReport {
  tables: number;
  /** The manifest's rows (every one read only with `all`). */
  rows: number;
  chunks: ChunkCheck;
  checkpoints: number;
  sampledNames: number;
  sampleChecks: number;
  rpcCalls: number;
  reorged: string[];
  seconds: number;
  /**
   * A PostgreSQL restore's seconds before the verify: rows loaded (or a physical copy unpacked) as the file arrived, the
   * keys and the other indexes and triggers built, then ponder.schema.ts's indexes (a physical copy builds neither, and
   * its server's start takes `startSeconds`).
   */
  restore?: { loadSeconds: number; postDataSeconds: number; ponderIndexSeconds: number; startSeconds?: number };
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
 * list, a random sample of each table's chunks (or, `all`, every chunk and so every row count) against the manifest's
 * digests, the checkpoints against the operator's RPC, then a sample of names against chain state (eth_call). Nothing
 * on the sampled path reads a whole table: a row count would cost a scan of the index.
 */
export async function verifyRestored(
  db: Queryable,
  schema: string,
  manifest: SnapshotManifest,
  config: AppConfig,
  rpc: RpcPool,
  options: VerifyOptions,
): Promise<VerifyReport> {
  const started = Date.now();
  await db.query("begin isolation level repeatable read read only");
  try {
    const { restored, problems } = await compareTableList(db, schema, manifest);
    const chunks = problems.length > 0 ? null : await checkChunks(db, schema, manifest, options.chunks);
    problems.push(...(chunks?.problems ?? []));
    if (problems.length > 0)
      throw new SnapshotError("digest", `the restored tables differ from the manifest: ${problems.join("; ")}`);
    const checkpoints = await verifyCheckpoints(manifest.checkpoints, rpc);
    if (checkpoints.problems.length > 0) {
      throw new SnapshotError(
        "checkpoint",
        `the snapshot's checkpoints are not on your chains: ${checkpoints.problems.join("; ")}`,
      );
    }
    const sample = await verifySample(db, schema, config, manifest, rpc, options.sampleSize);
    if (sample.problems.length > 0) {
      const shown = sample.problems.slice(0, 10).join("; ");
      throw new SnapshotError(
        "sample",
        `${sample.problems.length} of ${sample.checks} sampled values differ from chain state: ${shown}`,
      );
    }
    return {
      tables: restored.size,
      rows: Object.values(manifest.tables).reduce((sum, t) => sum + t.rows, 0),
      chunks: chunks!,
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

/**
 * The restored tables against the manifest's list: each missing or extra table is a problem. Restore checks it also
 * before it builds keys and indexes (`checkTableList`), which would otherwise fail on a missing table with no word of it.
 */
async function compareTableList(
  db: Queryable,
  schema: string,
  manifest: SnapshotManifest,
): Promise<{ restored: Set<string>; problems: string[] }> {
  const restored = new Set(
    (await tablesToDigest(db, [schema, "ponder_sync"])).map(
      (t) => digestTarget(schema, t.schema, t.table, manifest.checkpoints).name,
    ),
  );
  const problems: string[] = [];
  for (const name of new Set([...Object.keys(manifest.tables), ...restored])) {
    if (!restored.has(name)) problems.push(`table ${name} is missing from the restored data`);
    else if (!manifest.tables[name]) problems.push(`table ${name} is not in the manifest`);
  }
  return { restored, problems };
}

/** Refuses restored data whose tables are not the manifest's, with verify's message. */
export async function checkTableList(db: Queryable, schema: string, manifest: SnapshotManifest): Promise<void> {
  const { problems } = await compareTableList(db, schema, manifest);
  if (problems.length > 0)
    throw new SnapshotError("digest", `the restored tables differ from the manifest: ${problems.join("; ")}`);
}

/** The lines restore and verify print: what was checked, then the chunk sample's confidence. */
export function describeReport(r: VerifyReport): string[] {
  const lines = [
    `verify: ${r.tables} tables of ${r.rows} rows, ${r.chunks.checked} chunks digested, ${r.checkpoints} checkpoints, ${r.sampledNames} sampled names (${r.sampleChecks} values), ${r.rpcCalls} RPC calls, ${r.seconds.toFixed(1)} s`,
    describeChunkCheck(r.chunks),
  ];
  if (r.chunks.unindexedTables > 0) {
    lines.push(
      `${r.chunks.unindexedTables} tables' chunks were read outside their primary-key index (the database's collation does not sort as C): each costs a scan of its table; restore into a database created with --locale C`,
    );
  }
  return lines;
}
