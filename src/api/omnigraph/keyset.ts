import { type SQL, sql } from "drizzle-orm";
import { Batcher } from "./batch";
import type { OmnigraphContext } from "./context";
import { type Connection, decodeCursor, type PageArgs, toConnection } from "./cursor";

/*
 * The SQL side of keyed (keyset) paging, written once for the lists that are not domain lists (domain-sql.ts pages
 * those, on a sort key of their own): the bounds a cursor puts on a list keyed by one text column, and a connection
 * per parent whose pages, for every parent asked at one level of the answer, come from one statement.
 */

/** A statement's `in (…)` list of text values, each one a bound parameter. */
export const list = (values: string[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

/**
 * Rows strictly after `after` and before `before` on a list ordered by one text column that is its key and its id
 * (the cursor's id part is that column's value, read through `read`: an id an earlier build wrote in another form).
 */
export function idBounds(args: PageArgs, column: SQL, read: (id: string) => string = (id) => id): SQL[] {
  const out: SQL[] = [];
  if (args.after != null) out.push(sql`${column} > ${read(decodeCursor(args.after, "text")[1])}`);
  if (args.before != null) out.push(sql`${column} < ${read(decodeCursor(args.before, "text")[1])}`);
  return out;
}

/** Rows grouped by their `scope` column (the parent's key), in the order read. */
function byScope<R extends { scope: string }>(rows: R[]): Map<string, R[]> {
  const out = new Map<string, R[]>();
  for (const r of rows) {
    const group = out.get(r.scope);
    if (group) group.push(r);
    else out.set(r.scope, [r]);
  }
  return out;
}

export interface KeyedList<R extends { scope: string }, T> {
  /** The batcher of the pages: lists asked with the same arguments at one level share it (and its statement). */
  pages: string;
  /** The batcher of the counts. */
  counts: string;
  /** Each key's page, one row past its size, in the page's direction, with the key as `scope`. */
  pageQuery: (keys: string[]) => SQL;
  /** `scope, count` for each key with rows. */
  countQuery: (keys: string[]) => SQL;
  /** Checks a key's count before `totalCount` answers it (a capped count throws past its cap). */
  checkCount?: (count: number) => number;
  cursorOf: (row: R) => string;
  nodeOf: (row: R) => T;
}

/** One parent's page of a keyed list: one statement for every parent's page, another for the counts when asked. */
export function keyedConnection<R extends { scope: string }, T>(
  ctx: OmnigraphContext,
  spec: KeyedList<R, T>,
  key: string,
  args: PageArgs,
): Promise<Connection<T>> {
  const pages = ctx.batcher(
    spec.pages,
    () => new Batcher<string, R[]>(async (keys) => byScope(await ctx.query<R>(spec.pageQuery(keys))), []),
  );
  const counts = ctx.batcher(
    spec.counts,
    () =>
      new Batcher<string, number>(async (keys) => {
        const rows = await ctx.query<{ scope: string; count: number }>(spec.countQuery(keys));
        return new Map(rows.map((r) => [r.scope, Number(r.count)]));
      }, 0),
  );
  const check = spec.checkCount;
  const totalCount = () => (check ? counts.load(key).then(check) : counts.load(key));
  return pages.load(key).then((rows) => toConnection(rows, args, spec.cursorOf, spec.nodeOf, totalCount));
}
