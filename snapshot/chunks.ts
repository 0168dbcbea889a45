import { createHash } from "node:crypto";
import { type Queryable, quoteIdent } from "./queryable";

/*
 * A table's rows in key order, cut into chunks of a fixed number of rows. Each chunk is named by its first row's key,
 * so the chunks partition the key space: chunk i holds the keys from its first key up to the next chunk's (the first
 * chunk from the lowest key possible, the last to the highest). Any row changed, added or removed lands in exactly one
 * chunk, and one chunk is read back with a keyset range over the primary-key index: checking k chunks costs k short
 * index scans, not a scan of the table.
 */

export interface Chunk {
  /** The first row's key columns as text (empty for the first chunk: it starts at the lowest key). */
  first: string[];
  /** sha256 over the chunk's rows' text (`row::text`), one per line, in key order. */
  sha256: string;
}

/** How a table is ordered and addressed: its key expressions in order, and the SQL type each key value is cast to. */
export interface KeyOrder {
  /** SQL expressions over the row alias `t`, ordered as the manifest's chunks are (C collation for text). */
  exprs: string[];
  /** The type a key value given as text is cast to (`$1::numeric`), so comparisons use the column's own type. */
  types: string[];
  /** True when every key expression is the bare column in its own collation: the primary-key index serves ranges. */
  indexed: boolean;
}

/** Collations whose order is byte order, i.e. the C collation's: libc's C, POSIX and C.UTF-8 (code-point order). */
const BYTE_ORDER = new Set(["C", "POSIX", "C.UTF-8", "C.utf8", "ucs_basic"]);

/**
 * The table's primary-key columns, ordered as on every server: text-like columns in the C collation, others in their
 * type's own order. A column already in a byte-order collation is used bare, so the planner can range-scan the
 * primary-key index (an explicit `collate "C"` on a column of the database's default collation hides the index, even
 * when that default sorts as C). A table without a primary key is ordered by its row text.
 */
export async function keyOrderOf(db: Queryable, schema: string, table: string): Promise<KeyOrder> {
  const { rows } = await db.query<{ column: string; type: string; collation: string | null; collatable: boolean }>(
    `select a.attname as column, format_type(a.atttypid, a.atttypmod) as type,
            case when a.attcollation = 0 then null
                 when c.collname = 'default' then (
                   -- An ICU default (datlocprovider 'i', PostgreSQL 15+) orders by ICU whatever datcollate says.
                   select case when coalesce(to_jsonb(d) ->> 'datlocprovider', 'c') = 'c' then d.datcollate end
                     from pg_database d where d.datname = current_database())
                 else coalesce(c.collcollate, c.collname) end as collation,
            a.attcollation <> 0 as collatable
       from pg_index i
       join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
       left join pg_collation c on c.oid = a.attcollation
      where i.indrelid = ($1)::regclass and i.indisprimary
      order by array_position(i.indkey, a.attnum)`,
    [`${quoteIdent(schema)}.${quoteIdent(table)}`],
  );
  if (rows.length === 0) return { exprs: [`(t::text) collate "C"`], types: ["text"], indexed: false };
  const cOrdered = (r: (typeof rows)[number]) => !r.collatable || BYTE_ORDER.has(String(r.collation));
  return {
    exprs: rows.map((r) => `t.${quoteIdent(r.column)}${cOrdered(r) ? "" : ` collate "C"`}`),
    types: rows.map((r) => r.type),
    indexed: rows.every(cOrdered),
  };
}

const FETCH = 5000;

/**
 * Reads the whole table in key order through a cursor (memory stays flat) and cuts it into chunks of `chunkRows`
 * rows: what `create` writes into the manifest and what `verify --full` recomputes. `where` keeps part of a table
 * (the sync store's kept rows); the caller holds the transaction (one snapshot).
 */
export async function chunkTable(
  db: Queryable,
  schema: string,
  table: string,
  chunkRows: number,
  where: string | null = null,
): Promise<{ rows: number; chunks: Chunk[] }> {
  const order = await keyOrderOf(db, schema, table);
  const keys = order.exprs.map((e, i) => `(${e})::text as k${i}`).join(", ");
  const cursor = `snapshot_chunks_${Math.floor(Math.random() * 1e9)}`;
  await db.query(
    `declare ${cursor} no scroll cursor for select t::text as r, ${keys} from ${quoteIdent(schema)}.${quoteIdent(table)} t${where ? ` where ${where}` : ""} order by ${order.exprs.join(", ")}`,
  );
  const chunks: Chunk[] = [];
  let rows = 0;
  let hash = createHash("sha256");
  let first: string[] = [];
  try {
    for (;;) {
      const { rows: batch } = await db.query<Record<string, string>>(`fetch ${FETCH} from ${cursor}`);
      for (const row of batch) {
        if (rows % chunkRows === 0 && rows > 0) {
          chunks.push({ first, sha256: hash.digest("hex") });
          hash = createHash("sha256");
          first = order.exprs.map((_, i) => String(row[`k${i}`]));
        }
        hash.update(String(row.r)).update("\n");
        rows += 1;
      }
      if (batch.length < FETCH) break;
    }
  } finally {
    await db.query(`close ${cursor}`);
  }
  // An empty table is one empty chunk: the range over every key must hold no row.
  chunks.push({ first, sha256: hash.digest("hex") });
  return { rows, chunks };
}

/**
 * Recomputes chunk `index` of a table from its key range alone ([its first key, the next chunk's first key)), reading
 * at most one row more than a chunk holds: an inflated range is refused without reading it all.
 */
export async function digestChunk(
  db: Queryable,
  schema: string,
  table: string,
  order: KeyOrder,
  chunks: Chunk[],
  index: number,
  chunkRows: number,
  where: string | null = null,
): Promise<{ rows: number; sha256: string }> {
  const params: string[] = [];
  const tuple = (key: string[]) => {
    const placeholders = key.map((value, i) => {
      params.push(value);
      return `$${params.length}::${order.types[i]}`;
    });
    return `(${placeholders.join(", ")})`;
  };
  const columns = `(${order.exprs.join(", ")})`;
  const conditions = [where ?? "true"];
  if (index > 0) conditions.push(`${columns} >= ${tuple(chunks[index]!.first)}`);
  if (index < chunks.length - 1) conditions.push(`${columns} < ${tuple(chunks[index + 1]!.first)}`);
  const { rows } = await db.query<{ r: string }>(
    `select t::text as r from ${quoteIdent(schema)}.${quoteIdent(table)} t where ${conditions.join(" and ")}
      order by ${order.exprs.join(", ")} limit ${chunkRows + 1}`,
    params,
  );
  const hash = createHash("sha256");
  for (const { r } of rows) hash.update(r).update("\n");
  return { rows: rows.length, sha256: hash.digest("hex") };
}

/**
 * The table's root: sha256 over its row count, chunk size and ordered chunk list. It binds the list as one value, so a
 * manifest whose chunks were edited, dropped or reordered without its root is refused before any data is read.
 */
export function chunkRoot(rows: number, chunkRows: number, chunks: Chunk[]): string {
  const hash = createHash("sha256").update(`${rows} ${chunkRows}\n`);
  for (const c of chunks) hash.update(`${JSON.stringify(c.first)} ${c.sha256}\n`);
  return hash.digest("hex");
}
