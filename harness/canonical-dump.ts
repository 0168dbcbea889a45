import { createHash } from "node:crypto";
import pg from "pg";

/*
 * A canonical, ordered dump of every table the indexer wrote, so two indexes can be compared for equality
 * (a crashed-and-restarted run against a clean one, a reorged chain against a fresh index of the new history).
 * Ponder's own bookkeeping tables (names starting with `_`: _ponder_meta, _ponder_checkpoint, _reorg__*) are left out:
 * they hold timestamps and checkpoints that legitimately differ between runs. `{ bookkeeping: true }` keeps them, to
 * show that nothing at all changed in a schema (a refused start on it).
 */

export interface TableDump {
  rows: number;
  sha256: string;
  /** Every row as canonical JSON (sorted keys), sorted; kept to explain a difference. */
  lines: string[];
}

export type CanonicalDump = Record<string, TableDump>;

interface Queryable {
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

function canonicalValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return `0x${Buffer.from(value).toString("hex")}`;
  if (Array.isArray(value)) return value.map(canonicalValue);
  if (typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((k) => [k, canonicalValue((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

export interface DumpOptions {
  /** Ponder's tables and ours whose names start with `_` too. */
  bookkeeping?: boolean;
}

async function dumpWith(db: Queryable, schema: string, options: DumpOptions = {}): Promise<CanonicalDump> {
  const { rows: tables } = await db.query(
    `select table_name from information_schema.tables
      where table_schema = $1 and table_type = 'BASE TABLE' and ($2 or table_name not like '\\_%')
      order by table_name`,
    [schema, options.bookkeeping === true],
  );
  const dump: CanonicalDump = {};
  for (const { table_name } of tables) {
    const name = String(table_name);
    // Cast every column to text in SQL so numeric/bigint/json values compare exactly, whatever the driver does with them.
    const { rows } = await db.query(`select to_jsonb(t)::text as j from "${schema}"."${name}" t`);
    const lines = rows.map((r) => JSON.stringify(canonicalValue(JSON.parse(String(r.j))))).sort();
    dump[name] = { rows: lines.length, sha256: createHash("sha256").update(lines.join("\n")).digest("hex"), lines };
  }
  return dump;
}

/** Dumps a PostgreSQL schema (the indexer may still be running: it reads one consistent snapshot). */
export async function dumpPostgres(
  connectionString: string,
  schema: string,
  options?: DumpOptions,
): Promise<CanonicalDump> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query("begin isolation level repeatable read read only");
    const dump = await dumpWith(client, schema, options);
    await client.query("commit");
    return dump;
  } finally {
    await client.end();
  }
}

/** Dumps a PGlite folder. The indexer that owns it must be stopped first: PGlite is single-process. */
export async function dumpPglite(directory: string, schema: string, options?: DumpOptions): Promise<CanonicalDump> {
  const { PGlite } = await import("@electric-sql/pglite");
  const db = new PGlite(directory);
  try {
    return await dumpWith(db as unknown as Queryable, schema, options);
  } finally {
    await db.close();
  }
}

/** Human-readable differences (table, row counts, first differing rows); empty when the dumps are equal. */
export function diffDumps(expected: CanonicalDump, actual: CanonicalDump, maxLinesPerTable = 3): string[] {
  const problems: string[] = [];
  const tables = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
  for (const table of tables) {
    const a = expected[table];
    const b = actual[table];
    if (!a || !b) {
      problems.push(`${table}: present only in ${a ? "expected" : "actual"}`);
      continue;
    }
    if (a.sha256 === b.sha256) continue;
    const inB = new Set(b.lines);
    const inA = new Set(a.lines);
    const missing = a.lines.filter((l) => !inB.has(l)).slice(0, maxLinesPerTable);
    const extra = b.lines.filter((l) => !inA.has(l)).slice(0, maxLinesPerTable);
    problems.push(
      `${table}: ${a.rows} rows expected, ${b.rows} actual; missing ${JSON.stringify(missing)}; unexpected ${JSON.stringify(extra)}`,
    );
  }
  return problems;
}

/** One line per table: rows and hash prefix, for the test's report. */
export function summarizeDump(dump: CanonicalDump): string {
  return Object.entries(dump)
    .map(([t, d]) => `${t}=${d.rows}`)
    .join(" ");
}
