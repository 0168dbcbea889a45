import { getTableConfig, type PgTable } from "drizzle-orm/pg-core";
import * as schema from "../../ponder.schema";

/*
 * CREATE statements for our tables, from the drizzle definitions in ponder.schema.ts (the same columns, types and
 * indexes Ponder creates), for tests and benchmarks that fill a throwaway schema without running the indexer.
 */

export const SCHEMA_TABLES = (Object.values(schema) as unknown[]).filter(
  (v): v is PgTable => typeof v === "object" && v !== null && Symbol.for("drizzle:IsDrizzleTable") in v,
);

/** A column default as SQL (the shapes ponder.schema.ts uses: numbers, bigints, booleans, strings, arrays). */
function defaultLiteral(value: unknown, sqlType: string): string | undefined {
  const quote = (v: string) => `'${v.replace(/'/g, "''")}'`;
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "string") return quote(value);
  if (Array.isArray(value)) return `${quote(`{${value.map((v) => JSON.stringify(String(v))).join(",")}}`)}::${sqlType}`;
  return undefined; // SQL expressions: no table the tests fill needs one
}

/** Every table of ponder.schema.ts, plus the `_ponder_checkpoint` and `_ponder_meta` tables /subgraph's `_meta` reads. */
export function tablesDdl(): string[] {
  const out: string[] = [];
  for (const table of SCHEMA_TABLES) {
    const config = getTableConfig(table);
    const cols = config.columns.map((c) => {
      let def = `"${c.name}" ${c.getSQLType()}`;
      if (c.primary) def += " PRIMARY KEY";
      if (c.notNull && !c.primary) def += " NOT NULL";
      if (c.hasDefault && c.default !== undefined) {
        const literal = defaultLiteral(c.default, c.getSQLType());
        if (literal !== undefined) def += ` DEFAULT ${literal}`;
      }
      return def;
    });
    // A composite primary key (primaryKey({ columns }) in ponder.schema.ts) is the table's, not a column's.
    for (const pk of config.primaryKeys) cols.push(`PRIMARY KEY (${pk.columns.map((c) => `"${c.name}"`).join(", ")})`);
    out.push(`CREATE TABLE "${config.name}" (${cols.join(", ")})`);
    for (const idx of config.indexes) {
      const columns = idx.config.columns.map((c) => `"${(c as { name: string }).name}"`).join(", ");
      out.push(`CREATE ${idx.config.unique ? "UNIQUE " : ""}INDEX ON "${config.name}" (${columns})`);
    }
  }
  out.push(
    `CREATE TABLE "_ponder_checkpoint" (chain_name text PRIMARY KEY, chain_id bigint NOT NULL, safe_checkpoint varchar(75) NOT NULL, latest_checkpoint varchar(75) NOT NULL, finalized_checkpoint varchar(75) NOT NULL)`,
    `CREATE TABLE "_ponder_meta" (key text PRIMARY KEY, value jsonb)`,
    `INSERT INTO "_ponder_meta" VALUES ('app', '{"is_locked": 1}')`,
  );
  return out;
}
