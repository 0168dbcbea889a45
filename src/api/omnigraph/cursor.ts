import { GraphQLError } from "graphql";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "./limits";

/*
 * Relay cursors: the row's sort key and id, base64url JSON. A page after a cursor is the rows strictly after that
 * key in the connection's order, so a cursor stays valid (and pages neither repeat nor skip) while rows are added.
 */

export type SortValue = string | number;

export function encodeCursor(key: SortValue, id: string): string {
  return Buffer.from(JSON.stringify([key, id])).toString("base64url");
}

export function decodeCursor(cursor: string, keyKind: "text" | "number"): [SortValue, string] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    parsed = undefined;
  }
  const valid =
    Array.isArray(parsed) &&
    parsed.length === 2 &&
    typeof parsed[1] === "string" &&
    (keyKind === "text"
      ? typeof parsed[0] === "string"
      : typeof parsed[0] === "number" || /^-?\d{1,20}$/.test(String(parsed[0])));
  if (!valid) throw invalidCursor(cursor);
  return parsed as [SortValue, string];
}

/**
 * A cursor at a log's place in a list ordered by (block, log index, ERC-1155 batch sub-index) as numbers, with the id
 * as tie-break: events and renewals. The block stays text (a bigint column); a list without batches passes sub 0.
 */
export interface LogPosition {
  block: string;
  log: number;
  sub: number;
  id: string;
}

export const encodeLogCursor = (block: string | number | bigint, log: number, sub: number, id: string): string =>
  encodeCursor(`${block}-${log}-${sub}`, id);

export function decodeLogCursor(cursor: string): LogPosition {
  const [key, id] = decodeCursor(cursor, "text");
  const m = /^(\d{1,20})-(\d{1,9})-(\d{1,9})$/.exec(String(key));
  if (!m) throw invalidCursor(cursor);
  return { block: m[1]!, log: Number(m[2]), sub: Number(m[3]), id };
}

export const invalidCursor = (cursor: string) =>
  new GraphQLError(`Invalid cursor "${cursor.slice(0, 100)}": use a cursor from this connection's pageInfo or edges`);

export interface PageArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

/** Only the paging arguments of a list field's arguments (the rest, filters and order, are the list's own). */
export const pageOf = (args: PageArgs): PageArgs => ({
  first: args.first,
  last: args.last,
  after: args.after,
  before: args.before,
});

/** The page's size and direction; `first` with `last` is refused (ambiguous), as are sizes out of range. */
export function pageWindow(args: PageArgs): { size: number; backward: boolean } {
  const { first, last } = args;
  if (first != null && last != null) throw new GraphQLError("Pass `first` or `last`, not both");
  const size = first ?? last ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(size) || size < 0 || size > MAX_PAGE_SIZE) {
    throw new GraphQLError(
      `\`${first != null ? "first" : "last"}\` must be between 0 and ${MAX_PAGE_SIZE}, but is ${size}`,
    );
  }
  return { size, backward: last != null };
}

export interface Connection<T> {
  edges: { cursor: string; node: T }[];
  pageInfo: { startCursor: string | null; endCursor: string | null; hasNextPage: boolean; hasPreviousPage: boolean };
  totalCount: number | (() => Promise<number>);
}

export function emptyConnection(): Connection<never> {
  return {
    edges: [],
    pageInfo: { startCursor: null, endCursor: null, hasNextPage: false, hasPreviousPage: false },
    totalCount: 0,
  };
}

/** A page holding one item, the whole list (one that holds at most one), its cursor the item's id. */
export function oneItemConnection<T>(node: T, id: string): Connection<T> {
  const cursor = encodeCursor(id, id);
  return {
    edges: [{ cursor, node }],
    pageInfo: { startCursor: cursor, endCursor: cursor, hasNextPage: false, hasPreviousPage: false },
    totalCount: 1,
  };
}

/** An edge whose cursor is encoded when a query reads it (most ask for nodes only). */
class Edge<R, T> {
  constructor(
    private readonly row: R,
    private readonly cursorOf: (row: R) => string,
    readonly node: T,
  ) {}

  get cursor(): string {
    return this.cursorOf(this.row);
  }
}

/** Edges from rows fetched one past the page size (in the page's own direction), in the connection's order. */
export function toConnection<R, T>(
  rows: R[],
  args: PageArgs,
  cursorOf: (row: R) => string,
  nodeOf: (row: R) => T,
  totalCount: () => Promise<number>,
): Connection<T> {
  const { size, backward } = pageWindow(args);
  const more = rows.length > size;
  // A copy when it is cut or turned (the rows may be shared with another field of the same level).
  const page = rows.length > size || backward ? rows.slice(0, size) : rows;
  if (backward) page.reverse();
  const edges = page.map((row) => new Edge(row, cursorOf, nodeOf(row)));
  const first = page[0];
  const last = page[page.length - 1];
  return {
    edges,
    pageInfo: {
      startCursor: first === undefined ? null : cursorOf(first),
      endCursor: last === undefined ? null : cursorOf(last),
      hasNextPage: backward ? args.before != null : more,
      hasPreviousPage: backward ? more : args.after != null,
    },
    totalCount,
  };
}
