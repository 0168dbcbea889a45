import { z } from "zod";

/** The snapshot file's manifest: what the payload holds and what restore verifies it against. */
export const SNAPSHOT_FORMAT = "nameindex-snapshot/3";

const sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const blockRef = z.object({ number: z.number().int().nonnegative(), hash: z.string().regex(/^0x[0-9a-f]{64}$/) });
export type BlockRef = z.infer<typeof blockRef>;

export const manifestSchema = z.object({
  format: z.literal(SNAPSHOT_FORMAT),
  createdAt: z.string(),
  database: z.enum(["postgres", "pglite"]),
  /** The index's schema when the snapshot was taken (restore may rename it to its own DATABASE_SCHEMA). */
  schema: z.string(),
  /** src/indexing/build-record.ts's record of the index, as stored beside it. */
  buildRecord: z.record(z.unknown()),
  /**
   * Per chain: the block Ponder resumes from (its safe checkpoint; every row written after it is reverted on start
   * from the `_reorg__*` tables the snapshot holds) and the latest block indexed.
   */
  checkpoints: z.array(
    z.object({
      chainId: z.number().int(),
      chainName: z.string(),
      resume: blockRef.nullable(),
      latest: blockRef.nullable(),
    }),
  ),
  /** Rows per chunk (chunks.ts): every table's rows in key order are cut into chunks of this many. */
  chunkRows: z.number().int().positive(),
  /**
   * `<schema>.<table>` → row count, the chunk list (each chunk's first key and the sha256 of its rows' text, in key
   * order) and the root over both (chunks.ts), which restore checks against the list before reading any data.
   */
  tables: z.record(
    z.object({
      rows: z.number().int().nonnegative(),
      root: sha256,
      chunks: z.array(z.object({ first: z.array(z.string()), sha256 })).min(1),
    }),
  ),
  /**
   * A physical copy's cluster (payload `cluster-tar`): its PostgreSQL major version, the index's database, the role
   * restore verifies as (the cluster's bootstrap superuser) and the role the indexer used.
   */
  cluster: z
    .object({ major: z.number().int(), database: z.string(), superuser: z.string(), user: z.string() })
    .optional(),
  /**
   * The payload: its parts one after another (a PostgreSQL index: pg_dump's pre-data and data, the kept sync rows, the
   * post-data statements; a PGlite index: its gzipped directory; a physical copy: the cluster's data directory, tarred
   * and zstd-compressed), so restore loads each as it arrives.
   */
  payload: z
    .object({
      kind: z.enum(["pg_dump-parts", "pglite-tar", "cluster-tar"]),
      bytes: z.number().int().nonnegative(),
      sha256: z.string(),
      parts: z.array(z.object({ name: z.string(), bytes: z.number().int().nonnegative() })).min(1),
    })
    .refine((p) => p.parts.reduce((sum, part) => sum + part.bytes, 0) === p.bytes, {
      message: "the payload's parts do not add up to its size",
    }),
});

export type SnapshotManifest = z.infer<typeof manifestSchema>;
