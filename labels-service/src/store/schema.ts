import type Database from "better-sqlite3";

/** Bumped when the table layout changes; reported by /v1/config so clients can tell layouts apart. */
export const SCHEMA_VERSION = 1;

// labelhash is the 32 raw bytes and the only key, so WITHOUT ROWID stores each record once, in key order.
// label is a BLOB of UTF-8 bytes: SQLite TEXT handling stops at NUL in places, and labels may contain NUL.
export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS labels (
  labelhash BLOB PRIMARY KEY NOT NULL,
  label BLOB NOT NULL,
  version INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY NOT NULL,
  value
) WITHOUT ROWID;
`;

/** ready: a completed version is served. ingesting: the first ingest is running (or died). failed: it failed. */
export type IngestState = "ready" | "ingesting" | "failed";

export interface StoreMeta {
  schemaVersion: number | null;
  labelSetId: string | null;
  highestVersion: number | null;
  recordsCount: number | null;
  ingestState: IngestState | null;
}

export const EMPTY_META: StoreMeta = {
  schemaVersion: null,
  labelSetId: null,
  highestVersion: null,
  recordsCount: null,
  ingestState: null,
};

const META_KEYS = {
  schemaVersion: "schema_version",
  labelSetId: "label_set_id",
  highestVersion: "highest_version",
  recordsCount: "records_count",
  ingestState: "ingest_state",
} as const satisfies Record<keyof StoreMeta, string>;

export function hasSchema(db: Database.Database): boolean {
  const row = db
    .prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name IN ('labels', 'meta')")
    .get() as {
    n: number;
  };
  return row.n === 2;
}

export function readMeta(db: Database.Database): StoreMeta {
  if (!hasSchema(db)) return { ...EMPTY_META };
  const rows = db.prepare("SELECT key, value FROM meta").all() as { key: string; value: unknown }[];
  const byKey = new Map(rows.map((r) => [r.key, r.value]));
  const num = (key: string) => (typeof byKey.get(key) === "number" ? (byKey.get(key) as number) : null);
  const str = (key: string) => (typeof byKey.get(key) === "string" ? (byKey.get(key) as string) : null);
  return {
    schemaVersion: num(META_KEYS.schemaVersion),
    labelSetId: str(META_KEYS.labelSetId),
    highestVersion: num(META_KEYS.highestVersion),
    recordsCount: num(META_KEYS.recordsCount),
    ingestState: str(META_KEYS.ingestState) as IngestState | null,
  };
}

export function writeMeta(db: Database.Database, meta: Partial<StoreMeta>): void {
  const upsert = db.prepare(
    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
  );
  for (const [field, value] of Object.entries(meta)) {
    upsert.run(META_KEYS[field as keyof StoreMeta], value);
  }
}
