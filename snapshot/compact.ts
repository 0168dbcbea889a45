import { type Queryable, quoteIdent } from "./queryable";

/**
 * Rewrites every table of a copy's index with VACUUM FULL (each heap packed anew, its indexes built again), spread
 * over `connections`, largest tables first so the last to finish is a small one. The room that updated and deleted
 * rows left behind (autovacuum reuses it but never gives it back) is then neither carried, downloaded nor unpacked:
 * 7 % of a 50,000-name index, 12 % of a 10,000-name one (docs/benchmarks.md, "Snapshots"). Only a copy is compacted,
 * never the publisher's index: VACUUM FULL locks each table whole while it runs.
 */
export async function compactIndex(
  connections: Queryable[],
  schema: string,
): Promise<{ beforeBytes: number; afterBytes: number }> {
  const [first] = connections;
  const beforeBytes = await schemaBytes(first!, schema);
  const { rows } = await first!.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relkind = 'r' order by pg_total_relation_size(c.oid) desc, c.relname`,
    [schema],
  );
  const queue = rows.map((r) => r.name);
  await Promise.all(
    connections.map(async (db) => {
      for (let table = queue.shift(); table !== undefined; table = queue.shift()) {
        await db.query(`vacuum full ${quoteIdent(schema)}.${quoteIdent(table)}`);
      }
    }),
  );
  return { beforeBytes, afterBytes: await schemaBytes(first!, schema) };
}

/** Bytes on disk of a schema's tables, their indexes and TOAST included. */
export async function schemaBytes(db: Queryable, schema: string): Promise<number> {
  const { rows } = await db.query<{ bytes: string }>(
    `select coalesce(sum(pg_total_relation_size(c.oid)), 0)::text as bytes
       from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relkind = 'r'`,
    [schema],
  );
  return Number(rows[0]!.bytes);
}
