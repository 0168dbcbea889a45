import { chownSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { run, runAs, serverPrograms, serverUserFor, startClusterServer } from "./cluster-server";
import { compactIndex } from "./compact";
import { sealSnapshot } from "./container";
import { digestCopy } from "./digest";
import { SnapshotError } from "./errors";
import type { SnapshotManifest } from "./manifest";
import { quoteIdent } from "./queryable";
import type { RpcPool } from "./rpc";
import { runTool } from "./tools";

/** The physical copy's one payload part: the cluster's data directory, tarred and zstd-compressed. */
export const CLUSTER_PAYLOAD = "cluster.tar.zst";

/**
 * What the copy never carries: the publisher's server configuration (the operator starts the copy with theirs, and
 * restore must not install settings that run commands, such as `archive_command`), and pg_basebackup's leftovers.
 */
export const SERVER_CONFIGURATION = ["postgresql.conf", "postgresql.auto.conf", "pg_hba.conf", "pg_ident.conf"];
const LEFT_OUT_OF_COPY = [
  ...SERVER_CONFIGURATION,
  "postmaster.opts",
  "backup_manifest",
  "backup_label.old",
  "current_logfiles",
  "log",
];

/** Connections that compact the copy's tables side by side (each VACUUM FULL is one core's work). */
const COMPACT_CONNECTIONS = Math.min(4, Math.max(1, availableParallelism()));

/** zstd's level for the copy: level 3 packed a 50,000-name cluster to 18 % (docs/benchmarks.md). */
const ZSTD_LEVEL = 3;

/**
 * Snapshots a dedicated PostgreSQL cluster physically, without pausing its indexer: `pg_basebackup` copies the running
 * cluster; the copy is started on a private socket, its index is compacted, it sheds the sync history before each
 * resume block (as every snapshot does), and is digested and checkpointed as the logical snapshot is, then shut down
 * cleanly and packed. The manifest so describes exactly the files the payload holds, and restore needs no WAL replay.
 */
export async function createClusterSnapshot(options: {
  connectionString: string;
  schema: string;
  file: string;
  rpc: RpcPool | undefined;
  chunkRows: number;
  log: (line: string) => void;
  /** PostgreSQL's server programs of the cluster's major version (default: Debian's directory). */
  pgBin?: string;
}): Promise<SnapshotManifest> {
  const { connectionString, schema, file, chunkRows, log } = options;
  const source = await describeSource(connectionString, schema);
  const bin = await serverPrograms(source.major, options.pgBin);
  await requireZstd();
  const work = mkdtempSync(join(tmpdir(), "nameindex-snapshot-"));
  const data = join(work, "data");
  try {
    const user = await serverUserFor(data);
    // pg_basebackup, run as the user that runs the copy's server, creates `data` in `work`.
    chownSync(work, user.uid, -1);
    let started = Date.now();
    // `-c fast`: an immediate checkpoint on the source (the default spreads it over minutes).
    await runAs(user, join(bin, "pg_basebackup"), ["-d", connectionString, "-D", data, "-X", "stream", "-c", "fast"]);
    log(`snapshot: the cluster copied by pg_basebackup in ${seconds(started)} s`);

    started = Date.now();
    const server = await startClusterServer(bin, data, user);
    let checkpoints: SnapshotManifest["checkpoints"];
    let tables: SnapshotManifest["tables"];
    let buildRecord: Record<string, unknown>;
    try {
      const db = await server.connect(source.database, source.superuser);
      const helpers: pg.Client[] = [];
      try {
        for (let i = 1; i < COMPACT_CONNECTIONS; i++)
          helpers.push(await server.connect(source.database, source.superuser));
        const compacting = Date.now();
        const compacted = await compactIndex([db, ...helpers], schema);
        log(
          `snapshot: the copy's index compacted (VACUUM FULL) from ${mib(compacted.beforeBytes)} to ${mib(compacted.afterBytes)} MiB in ${seconds(compacting)} s`,
        );
        buildRecord = (
          await db.query<{ record: Record<string, unknown> }>(
            `select record from ${quoteIdent(schema)}."_nameindex_build" where key = 'build'`,
          )
        ).rows[0]!.record;
        ({ checkpoints, tables } = await digestCopy(db, schema, options.rpc, chunkRows));
      } finally {
        for (const client of [db, ...helpers]) await client.end().catch(() => {});
      }
    } finally {
      await server.stop();
    }
    await trimWal(bin, data);
    log(
      `snapshot: the copy's sync history shed and its tables digested in ${seconds(started)} s (compaction included)`,
    );

    started = Date.now();
    const payload = join(work, CLUSTER_PAYLOAD);
    await packDirectory(data, payload);
    log(`snapshot: the copy packed (tar, zstd ${ZSTD_LEVEL}) in ${seconds(started)} s`);
    return await sealSnapshot(
      file,
      {
        database: "postgres",
        schema,
        buildRecord,
        checkpoints,
        chunkRows,
        tables,
        cluster: { major: source.major, database: source.database, superuser: source.superuser, user: source.user },
      },
      "cluster-tar",
      [{ name: CLUSTER_PAYLOAD, file: payload }],
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The data directory as tar (without LEFT_OUT_OF_COPY) through the zstd program into `file`: tar and zstd pipe into
 * each other directly, zstd on every core (Node's zstd, one call per piece, packed and unpacked at under half its rate).
 */
export async function packDirectory(directory: string, file: string): Promise<void> {
  await requireZstd();
  const excludes = LEFT_OUT_OF_COPY.map((name) => `--exclude=./${name}`).join(" ");
  await runTool("bash", [
    "-c",
    `set -o pipefail; tar -cf - -C "$0" ${excludes} . | zstd -q -f -${ZSTD_LEVEL} -T0 -o "$1"`,
    directory,
    file,
  ]);
}

/**
 * Leaves in the copy's pg_wal only the segment holding its shutdown checkpoint, which is all a cleanly shut down
 * cluster reads on start. The rest are older segments and ones recycled under future names (up to max_wal_size of
 * them after the sync history's VACUUM FULL): bytes that compress poorly and that no one reads.
 */
async function trimWal(bin: string, data: string): Promise<void> {
  const control = await run(join(bin, "pg_controldata"), [data]);
  const state = control.match(/^Database cluster state:\s+(.+)$/m)?.[1];
  const keep = control.match(/^Latest checkpoint's REDO WAL file:\s+([0-9A-F]{24})$/m)?.[1];
  if (state !== "shut down" || !keep)
    throw new Error(`the copy was not shut down cleanly (${state ?? "unknown state"})`);
  for (const file of readdirSync(join(data, "pg_wal"))) {
    if (/^[0-9A-F]{24}$/.test(file) && file !== keep) rmSync(join(data, "pg_wal", file));
  }
}

/** Refuses, before any work, a machine without the zstd program (Debian's package zstd). */
export async function requireZstd(): Promise<void> {
  await runTool("zstd", ["--version"]).catch(() => {
    throw new SnapshotError(
      "target-unusable",
      "a physical copy is packed with zstd: install it (apt-get install zstd)",
    );
  });
}

interface SourceCluster {
  major: number;
  database: string;
  superuser: string;
  user: string;
}

/**
 * The source cluster, refused unless it is dedicated to this index: a physical copy carries every database and
 * tablespace of the cluster, and a colleague's copy must carry nothing else.
 */
async function describeSource(connectionString: string, schema: string): Promise<SourceCluster> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rows } = await client.query<{
      major: number;
      database: string;
      superuser: string;
      user: string;
      build: string | null;
      others: string[];
      tablespaces: string[];
    }>(
      `select current_setting('server_version_num')::int / 10000 as major, current_database() as database,
              (select rolname from pg_roles where oid = 10) as superuser, current_user as user,
              to_regclass($1)::text as build,
              array(select datname from pg_database where not datistemplate and datname not in (current_database(), 'postgres') order by 1)::text[] as others,
              array(select spcname from pg_tablespace where spcname not in ('pg_default', 'pg_global') order by 1)::text[] as tablespaces`,
      [`${quoteIdent(schema)}."_nameindex_build"`],
    );
    const source = rows[0]!;
    if (!source.build) {
      throw new SnapshotError(
        "bad-manifest",
        `schema "${schema}" holds no nameindex index (no _nameindex_build table)`,
      );
    }
    if (source.others.length > 0 || source.tablespaces.length > 0) {
      throw new SnapshotError(
        "bad-manifest",
        `a physical copy carries the whole cluster, and this one holds more than the index: ${[
          ...source.others.map((d) => `database "${d}"`),
          ...source.tablespaces.map((t) => `tablespace "${t}"`),
        ].join(", ")}. Copy a cluster dedicated to the index, or make a logical snapshot (without --cluster)`,
      );
    }
    return { major: source.major, database: source.database, superuser: source.superuser, user: source.user };
  } finally {
    await client.end().catch(() => {});
  }
}

const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1);
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
