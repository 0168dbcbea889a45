/** Why a snapshot was refused; `kind` lets tests and callers tell the refusals apart. */
export type SnapshotRefusal =
  | "not-a-snapshot"
  | "format"
  | "truncated"
  | "bad-manifest"
  | "payload"
  | "target-not-empty"
  | "target-unusable"
  | "digest"
  | "build-record"
  | "checkpoint"
  | "sample"
  | "download";

export class SnapshotError extends Error {
  override name = "SnapshotError";
  constructor(
    readonly kind: SnapshotRefusal,
    message: string,
  ) {
    super(message);
  }
}
