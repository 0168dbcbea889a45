/** What the snapshot code needs of a database connection: pg.Client and PGlite both fit. */
export interface Queryable {
  query<R = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: R[] }>;
}

export const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;
