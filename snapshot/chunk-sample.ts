import { randomInt } from "node:crypto";
import { chunkTable, digestChunk, keyOrderOf } from "./chunks";
import { digestTarget, tablesToDigest } from "./digest";
import type { SnapshotManifest } from "./manifest";
import type { Queryable } from "./queryable";

/** Chunks checked per table when restore is not told otherwise (docs/operations.md, "Start from a snapshot"). */
export const DEFAULT_SAMPLE_CHUNKS = 200;

/** The probability the printed statement is made at. */
const STATED_PROBABILITY = 0.999;

export interface ChunkCheck {
  /** Chunks per table asked for, or `all` (`--full`). */
  perTable: number | "all";
  chunkRows: number;
  checked: number;
  total: number;
  /** Tables with no more chunks than `perTable`: checked whole, so any tampering of them is caught. */
  wholeTables: number;
  /** Tables read outside their primary-key index (a database whose collation does not sort as C). */
  unindexedTables: number;
  problems: string[];
}

/**
 * `k` distinct indices of `0 … n-1`, uniformly at random from node:crypto (Floyd's algorithm: k draws, no array of n),
 * so neither the publisher nor anyone who saw an earlier restore can tell which chunks the next one reads.
 */
export function pickChunks(n: number, k: number): number[] {
  const picked = new Set<number>();
  for (let j = n - Math.min(k, n); j < n; j++) {
    const t = randomInt(j + 1);
    picked.add(picked.has(t) ? j : t);
  }
  return [...picked].sort((a, b) => a - b);
}

/**
 * The smallest share f of a table's chunks that, tampered, is caught with probability ≥ `probability` when k of its N
 * chunks are drawn without replacement: P(miss) = C(N−b, k) / C(N, k) ≤ (1 − b/N)^k, so any f with (1 − f)^k ≤ 1 − p
 * will do: f = 1 − (1 − p)^(1/k), rounded up to 0.1 % so the printed figure stays true.
 */
export function caughtShare(k: number, probability = STATED_PROBABILITY): number {
  if (k <= 0) return 1;
  return Math.min(1, Math.ceil((1 - (1 - probability) ** (1 / k)) * 1000) / 1000);
}

/** What the chunk check printed: the bound in general and at the stated probability. */
export function describeChunkCheck(c: ChunkCheck): string {
  const head = `chunks of ${c.chunkRows} rows: ${c.checked} of ${c.total} checked`;
  if (c.perTable === "all") return `${head} (--full): any tampering of a table's rows is caught`;
  if (c.perTable === 0) return `${head} (--chunks 0): no row was checked against the manifest`;
  const percent = (x: number) => `${(x * 100).toFixed(1)} %`;
  return (
    `${head} (${c.perTable} random per table, every chunk of the ${c.wholeTables} tables with ≤ ${c.perTable}); ` +
    `a tampering of a share f of a table's chunks escapes with probability ≤ (1 − f)^${c.perTable}: ` +
    `a tampering of ≥ ${percent(caughtShare(c.perTable))} of a table's chunks is caught with probability ≥ ${percent(STATED_PROBABILITY)}`
  );
}

/**
 * Checks the restored tables' chunks against the manifest: `perTable` random chunks of each table (every chunk of a
 * table with no more), each read by its key range, or with `all` every table read whole in key order (one pass).
 * The caller has checked that the manifest's tables are there, and holds the transaction.
 */
export async function checkChunks(
  db: Queryable,
  schema: string,
  manifest: SnapshotManifest,
  perTable: number | "all",
): Promise<ChunkCheck> {
  const { chunkRows } = manifest;
  const result: ChunkCheck = {
    perTable,
    chunkRows,
    checked: 0,
    total: 0,
    wholeTables: 0,
    unindexedTables: 0,
    problems: [],
  };
  for (const { schema: tableSchema, table } of await tablesToDigest(db, [schema, "ponder_sync"])) {
    const { name, where } = digestTarget(schema, tableSchema, table, manifest.checkpoints);
    const want = manifest.tables[name];
    if (!want) continue;
    const n = want.chunks.length;
    result.total += n;
    const at = (i: number) =>
      `chunk ${i + 1} of ${n} (keys from ${i === 0 ? "the lowest" : JSON.stringify(want.chunks[i]!.first)})`;
    if (perTable === "all") {
      const got = await chunkTable(db, tableSchema, table, chunkRows, where);
      result.checked += n;
      const bad = want.chunks.findIndex(
        (c, i) =>
          c.sha256 !== got.chunks[i]?.sha256 || JSON.stringify(c.first) !== JSON.stringify(got.chunks[i]?.first),
      );
      if (got.rows !== want.rows)
        result.problems.push(`table ${name} has ${got.rows} rows, the manifest says ${want.rows}`);
      else if (bad >= 0) result.problems.push(`table ${name}: the rows of ${at(bad)} differ from the manifest's`);
      continue;
    }
    if (n <= perTable) result.wholeTables += 1;
    const order = await keyOrderOf(db, tableSchema, table);
    if (!order.indexed) result.unindexedTables += 1;
    for (const i of pickChunks(n, perTable)) {
      result.checked += 1;
      const got = await digestChunk(db, tableSchema, table, order, want.chunks, i, chunkRows, where);
      if (got.sha256 !== want.chunks[i]!.sha256) {
        result.problems.push(`table ${name}: the rows of ${at(i)} differ from the manifest's`);
        break;
      }
    }
  }
  return result;
}
