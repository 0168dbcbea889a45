import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sealSnapshot } from "./container";
import { digestCopy } from "./digest";
import { SnapshotError } from "./errors";
import type { SnapshotManifest } from "./manifest";
import { loadPayload } from "./payload";
import { type Queryable, quoteIdent } from "./queryable";
import { renameSchema, unlockIndex } from "./rename-schema";
import type { RpcPool } from "./rpc";
import { runTool } from "./tools";
import { type RestoreInput, type VerifyReport, verifyRestored } from "./verify";

/** The PGlite payload's one part: the data directory, tarred and gzipped. */
const PGLITE_PAYLOAD = "index.tar.gz";

/** build-record-store.ts's file in a PGlite directory: the build record of each schema. */
const RECORD_FILE = "nameindex-build.json";

interface PgliteDb extends Queryable {
  close(): Promise<void>;
}

export async function openPglite(directory: string): Promise<PgliteDb> {
  const { PGlite } = await import("@electric-sql/pglite");
  const db = new PGlite(directory);
  await db.waitReady;
  return db as unknown as PgliteDb;
}

function recordsOf(directory: string): Record<string, Record<string, unknown>> {
  const file = join(directory, RECORD_FILE);
  return existsSync(file)
    ? (JSON.parse(readFileSync(file, "utf8")) as { schemas: Record<string, Record<string, unknown>> }).schemas
    : {};
}

/**
 * Snapshots a PGlite index directory. PGlite is one process: the indexer that owns the directory must be stopped, and
 * a directory whose index is locked with a fresh heartbeat is refused. The directory is copied, the manifest is read
 * from the copy, and the copy is packed with tar and gzip, so manifest and payload describe the same files. Its index
 * is not compacted as a cluster's copy is: PGlite's copy carries its pg_wal, which the rewrite fills (a rehearsal
 * copy grew from 7.0 to 7.5 MiB).
 */
export async function createPgliteSnapshot(options: {
  directory: string;
  schema: string;
  file: string;
  rpc: RpcPool | undefined;
  chunkRows: number;
}): Promise<SnapshotManifest> {
  const { directory, schema, file, chunkRows } = options;
  if (!existsSync(join(directory, "PG_VERSION"))) {
    throw new SnapshotError("bad-manifest", `${directory} is not a PGlite data directory`);
  }
  const buildRecord = recordsOf(directory)[schema];
  if (!buildRecord)
    throw new SnapshotError("bad-manifest", `${directory} holds no build record for schema "${schema}"`);
  const work = mkdtempSync(join(tmpdir(), "nameindex-snapshot-"));
  try {
    // Opened as a copy: PGlite has no lock of its own, and opening the directory of a running indexer could damage it.
    const copy = join(work, "pglite");
    cpSync(directory, copy, { recursive: true });
    const db = await openPglite(copy);
    let checkpoints: SnapshotManifest["checkpoints"];
    let tables: SnapshotManifest["tables"];
    try {
      await refuseRunning(db, schema);
      ({ checkpoints, tables } = await digestCopy(db, schema, options.rpc, chunkRows));
    } finally {
      await db.close();
    }
    const payload = join(work, "index.tar.gz");
    await runTool("tar", ["-czf", payload, "-C", copy, "."]);
    return await sealSnapshot(
      file,
      { database: "pglite", schema, buildRecord, checkpoints, chunkRows, tables },
      "pglite-tar",
      [{ name: PGLITE_PAYLOAD, file: payload }],
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Restores a PGlite snapshot into an empty (or absent) directory, renames its schema to `schema`, verifies, and
 * releases the lock; any failure deletes what it unpacked.
 */
export async function restorePgliteSnapshot(options: RestoreInput & { directory: string }): Promise<VerifyReport> {
  const { directory, schema, manifest } = options;
  if (manifest.payload.kind !== "pglite-tar") {
    throw new SnapshotError("payload", "this snapshot is of a PostgreSQL index: restore it with DATABASE_URL set");
  }
  if (existsSync(directory) && readdirSync(directory).length > 0) {
    throw new SnapshotError("target-not-empty", `${directory} is not empty: restore into a new PGLITE_DIRECTORY`);
  }
  let restored = false;
  try {
    mkdirSync(directory, { recursive: true });
    restored = true;
    // Unpacked as it arrives; the checksum, known at its end, empties the directory again if it fails.
    await loadPayload(options.payload, manifest, options.label, {
      [PGLITE_PAYLOAD]: async (part) => {
        try {
          await runTool("tar", ["-xzf", "-", "-C", directory], { input: part });
        } catch (error) {
          throw new SnapshotError("payload", `the payload does not unpack: ${(error as Error).message}`);
        }
      },
    });
    const db = await openPglite(directory);
    let report: VerifyReport;
    try {
      if (manifest.schema !== schema) await renameSchema(db, manifest.schema, schema);
      report = await verifyRestored(db, schema, manifest, options.config, options.rpc, options.verify);
      await unlockIndex(db, schema);
    } finally {
      await db.close();
    }
    const records = recordsOf(directory);
    writeFileSync(
      join(directory, RECORD_FILE),
      JSON.stringify({ schemas: { [schema]: records[manifest.schema] ?? manifest.buildRecord } }, null, 2),
    );
    restored = false;
    return report;
  } finally {
    if (restored)
      for (const entry of readdirSync(directory)) rmSync(join(directory, entry), { recursive: true, force: true });
  }
}

/**
 * Ponder's lock, held with a heartbeat in the last 30 s (Ponder beats every 10 s and takes a lock over after 25 s),
 * means the indexer may be running. A stopped PGlite indexer can leave its lock set, so its heartbeat must age first.
 */
async function refuseRunning(db: Queryable, schema: string): Promise<void> {
  const { rows } = await db.query<{ value: { is_locked?: number; heartbeat_at?: number } }>(
    `select value from ${quoteIdent(schema)}."_ponder_meta" where key = 'app'`,
  );
  const app = rows[0]?.value;
  if (app?.is_locked === 1 && Date.now() - (app.heartbeat_at ?? 0) < 30_000) {
    throw new SnapshotError(
      "target-not-empty",
      `the PGlite index in schema "${schema}" is in use (its indexer beat ${Math.round((Date.now() - (app.heartbeat_at ?? 0)) / 1000)} s ago): stop the indexer, then snapshot 30 s after its last heartbeat`,
    );
  }
}
