import { z } from "zod";

/** The snapshot file's manifest: what the payload holds and what restore verifies it against. */
export const SNAPSHOT_FORMAT = "nameindex-snapshot/1";

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
  /** `<schema>.<table>` → row count and sha256 over the rows' text in primary-key order (digest.ts). */
  tables: z.record(z.object({ rows: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
  payload: z.object({
    kind: z.enum(["pg_dump-tar", "pglite-tar"]),
    bytes: z.number().int().nonnegative(),
    sha256: z.string(),
  }),
});

export type SnapshotManifest = z.infer<typeof manifestSchema>;
