import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { runAs, type ServerUser, serverPrograms, serverUserFor, startClusterServer } from "./cluster-server";
import { CLUSTER_PAYLOAD, requireZstd, SERVER_CONFIGURATION } from "./create-cluster";
import { SnapshotError } from "./errors";
import { loadPayload } from "./payload";
import { renameSchema, unlockIndex } from "./rename-schema";
import { type RestoreInput, type VerifyReport, verifyRestored } from "./verify";

/**
 * Restores a physical copy into an empty (or absent) data directory as its payload arrives (zstd, then tar, no copy of
 * the file on disk), then starts it on a private socket, renames its schema to `schema`, verifies it as every restore
 * does, unlocks it and shuts it down cleanly. The operator then starts their own server on the directory. Any
 * failure, the checksum's included, empties the directory again.
 */
export async function restoreClusterSnapshot(
  options: RestoreInput & { directory: string; pgBin?: string },
): Promise<VerifyReport> {
  const { directory, schema, manifest, log } = options;
  const cluster = manifest.cluster;
  if (manifest.payload.kind !== "cluster-tar" || !cluster) {
    throw new SnapshotError(
      "payload",
      "this snapshot is not a physical copy: restore it without --pgdata, into DATABASE_URL or PGLITE_DIRECTORY",
    );
  }
  // Both refusals come before any byte of the payload is read.
  const bin = await serverPrograms(cluster.major, options.pgBin);
  await requireZstd();
  if (existsSync(directory) && readdirSync(directory).length > 0) {
    throw new SnapshotError("target-not-empty", `${directory} is not empty: restore into a new data directory`);
  }
  const user = await serverUserFor(directory);
  let restored = false;
  try {
    mkdirSync(directory, { recursive: true });
    restored = true;
    chownSync(directory, user.uid, -1);
    chmodSync(directory, 0o700);
    await runAs(user, "test", ["-w", directory]).catch(() => {
      throw new SnapshotError(
        "target-unusable",
        `${directory} is out of reach of OS user ${user.name}, who runs PostgreSQL on it: give that user the directories above it`,
      );
    });
    let started = Date.now();
    await loadPayload(options.payload, manifest, options.label, {
      [CLUSTER_PAYLOAD]: (part) => unpack(user, part, directory),
    });
    refuseLinks(directory);
    const loadSeconds = (Date.now() - started) / 1000;
    log(`restore: the cluster unpacked into ${directory} in ${loadSeconds.toFixed(1)} s`);

    started = Date.now();
    const server = await startClusterServer(bin, directory, user);
    let report: VerifyReport;
    try {
      const startSeconds = (Date.now() - started) / 1000;
      const db = await server.connect(cluster.database, cluster.superuser);
      try {
        if (manifest.schema !== schema) await renameSchema(db, manifest.schema, schema);
        report = await verifyRestored(db, schema, manifest, options.config, options.rpc, options.verify);
        await unlockIndex(db, schema);
      } finally {
        await db.end().catch(() => {});
      }
      report = { ...report, restore: { loadSeconds, postDataSeconds: 0, ponderIndexSeconds: 0, startSeconds } };
    } finally {
      await server.stop();
    }
    log(
      `restore: start PostgreSQL ${cluster.major} on ${directory} with your own postgresql.conf and pg_hba.conf (the copy carries none), then ponder start with DATABASE_URL naming database "${cluster.database}" (role "${cluster.user}", the publisher's; set its password) and DATABASE_SCHEMA=${schema}`,
    );
    restored = false;
    return report;
  } finally {
    if (restored)
      for (const entry of readdirSync(directory)) rmSync(join(directory, entry), { recursive: true, force: true });
  }
}

/**
 * Refuses a copy that holds a symbolic link: a copy made by `create --cluster` holds none (no tablespace, pg_wal in
 * place), and a link (pg_tblspc's, say) would have the server read and write outside the data directory.
 */
function refuseLinks(directory: string): void {
  const link = readdirSync(directory, { recursive: true, withFileTypes: true }).find((entry) => entry.isSymbolicLink());
  if (link) {
    throw new SnapshotError(
      "payload",
      `the copy holds a symbolic link (${join(link.parentPath, link.name)}): restore accepts none`,
    );
  }
}

/**
 * The payload part through the zstd program and tar into `directory`, as the server's user, never installing server
 * configuration (a copy made by `create --cluster` carries none; any other is not trusted with it). zstd and tar pipe
 * into each other directly: Node carries only the compressed bytes (docs/benchmarks.md, "A physical copy"). tar reads
 * 1 MiB records (`-b 2048 -B`) rather than its default 10 KiB: fewer reads and writes, 1.3× the unpack's rate.
 */
async function unpack(user: ServerUser, part: Readable, directory: string): Promise<void> {
  const excludes = SERVER_CONFIGURATION.map((name) => `--exclude=${name}`).join(" ");
  try {
    await runAs(
      user,
      "bash",
      ["-c", `set -o pipefail; zstd -dcq | tar -xf - -b 2048 -B -C "$0" --no-same-owner ${excludes}`, directory],
      { input: part },
    );
  } catch (error) {
    throw new SnapshotError("payload", `the payload does not unpack: ${(error as Error).message}`);
  }
}
