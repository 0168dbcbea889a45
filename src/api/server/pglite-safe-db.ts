import { type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";

interface Executor {
  execute(query: SQL): Promise<unknown>;
}

const dialect = new PgDialect();

/**
 * On PGlite the API shares the indexer's only database session, and Ponder's flush leaves session-scoped temporary
 * tables named like our tables (`CREATE TEMP TABLE "domain" …`); PostgreSQL resolves an unqualified name to a
 * temporary table first, so an API read would see that (usually empty) staging table instead of the index. This
 * wrapper rewrites `FROM`/`JOIN` of our table names to the indexer's schema before executing. PostgreSQL mode does
 * not need it: the API reads through its own connections.
 */
export function qualifyTables<T extends Executor>(db: T, schema: string, tableNames: readonly string[]): T {
  const names = new Set(tableNames);
  const quotedSchema = `"${schema.replaceAll('"', '""')}"`;
  const pattern = /\b(from|join)(\s+)"?([a-z_][a-z0-9_]*)"?(?=[\s)]|$)/gi;
  const execute = (query: SQL) => {
    const compiled = dialect.sqlToQuery(query);
    const text = compiled.sql.replace(pattern, (whole, keyword: string, space: string, name: string) =>
      names.has(name) ? `${keyword}${space}${quotedSchema}."${name}"` : whole,
    );
    if (text === compiled.sql) return db.execute(query);
    // Re-attach the parameters in their $n positions (the dialect numbers them in order, each once).
    const parts = text.split(/\$(\d+)\b/);
    const chunks: SQL[] = [];
    for (let i = 0; i < parts.length; i++) {
      if (i % 2 === 0) chunks.push(sql.raw(parts[i]));
      // sql.param keeps an array one parameter (`$1::text[]`); a bare `${array}` would expand it into a row `($1, $2)`.
      else chunks.push(sql`${sql.param(compiled.params[Number(parts[i]) - 1])}`);
    }
    return db.execute(sql.join(chunks));
  };
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === "execute") return execute;
      return Reflect.get(target, property, receiver);
    },
  });
}
