import { type SQL, sql } from "drizzle-orm";
import { GraphQLError } from "graphql";
import { bytesValue } from "./event-facts";

/*
 * The `where` of an events list (`EventsWhereInput`, `AccountEventsWhereInput`) as conditions on a list's rows, whose
 * columns are `indexed_log`'s (event-facts.ts; addresses and hashes as bytea). Every filter the SDL has is applied; none is ignored.
 */

/** An `@oneOf` address or hash filter: exactly one of `eq` and `in` (graphql-js checks the one). */
interface OneOf {
  eq?: string | null;
  in?: string[] | null;
}

export interface EventsWhere {
  from?: OneOf | null;
  sender?: OneOf | null;
  selector?: OneOf | null;
  timestamp?: { gt?: bigint | null; gte?: bigint | null; lt?: bigint | null; lte?: bigint | null } | null;
}

/** As the peer: an `in` takes at most 10 values (an empty one matches nothing). */
export const MAX_EVENTS_FILTER_VALUES = 10;

/** `column = value` for a bytea column; a value that is not hex matches nothing. */
function equals(column: SQL, hex: string): SQL {
  const value = bytesValue(hex);
  return value ? sql`${column} = ${value}` : sql`false`;
}

function oneOf(field: string, filter: OneOf, column: SQL): SQL {
  if (filter.eq != null) return equals(column, filter.eq);
  const values = filter.in ?? [];
  if (values.length > MAX_EVENTS_FILTER_VALUES)
    throw new GraphQLError(
      `\`where.${field}.in\` takes at most ${MAX_EVENTS_FILTER_VALUES} values, got ${values.length}`,
    );
  const bytes = values.map(bytesValue).filter((v): v is SQL => v !== null);
  if (bytes.length === 0) return sql`false`;
  return sql`${column} in (${sql.join(bytes, sql`, `)})`;
}

const TIME_OPS = { gt: ">", gte: ">=", lt: "<", lte: "<=" } as const;

/** The conditions `where` puts on rows with `indexed_log`'s columns (unqualified: the list's own). */
export function eventsWhereConditions(where: EventsWhere | null | undefined): SQL[] {
  if (!where) return [];
  const out: SQL[] = [];
  // The transaction's sender: `sender` is the same account here (no smart-account attribution: docs/api.md).
  if (where.from) out.push(oneOf("from", where.from, sql.raw("transaction_from")));
  if (where.sender) out.push(oneOf("sender", where.sender, sql.raw("transaction_from")));
  // Topic 0: the first 32 bytes of the joined topics (bytea counts from 1).
  if (where.selector) out.push(oneOf("selector", where.selector, sql.raw("substring(topics from 1 for 32)")));
  for (const [key, op] of Object.entries(TIME_OPS) as [keyof typeof TIME_OPS, string][]) {
    const bound = where.timestamp?.[key];
    if (bound != null) out.push(sql`block_timestamp ${sql.raw(op)} ${bound.toString()}::numeric`);
  }
  return out;
}
