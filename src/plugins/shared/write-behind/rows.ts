import { type Column, getTableColumns, getTableName } from "drizzle-orm";
import { toSnakeCase } from "drizzle-orm/casing";
import { getTableConfig, PgArray, type PgTable } from "drizzle-orm/pg-core";

/*
 * A row as the database will hold it, and its COPY text: the same defaults, not-null check and driver values as
 * Ponder's store (its indexing-store `normalizeRow` and cache `getCopyText`), so a row written here equals, byte for
 * byte, the row Ponder would have written.
 */

export type Row = Record<string, unknown>;

interface TableShape {
  /** `"schema"."table"`, as Ponder's COPY names it. */
  target: string;
  columns: [string, Column][];
  /**
   * What a row's work reads of each column (its codec, default, not-null), in the order of `columns` and in objects of
   * one shape: read from drizzle's columns (a class each), the same properties cost a lookup that could not be cached
   * at every column of every row.
   */
  fills: Fill[];
  /** The primary key's columns. */
  key: [string, Column][];
  keyNames: Set<string>;
  byJs: Map<string, Column>;
}

export interface Fill {
  js: string;
  hasDefault: boolean;
  default: unknown;
  defaultFn: (() => unknown) | undefined;
  notNull: boolean;
  codec: Codec;
}

const shapes = new WeakMap<PgTable, TableShape>();

export function shapeOf(table: PgTable): TableShape {
  let shape = shapes.get(table);
  if (shape === undefined) {
    const config = getTableConfig(table);
    const columns = Object.entries(getTableColumns(table));
    const byName = new Map(columns.map(([js, c]) => [c.name, js]));
    const keyNames =
      config.primaryKeys.length > 0
        ? config.primaryKeys[0]!.columns.map((c) => byName.get(c.name)!)
        : columns.filter(([, c]) => c.primary).map(([js]) => js);
    const key = keyNames.map((js) => columns.find(([name]) => name === js)!);
    shape = {
      target: `"${config.schema ?? "public"}"."${getTableName(table)}"`,
      columns,
      fills: columns.map(([js, column]) => ({
        js,
        hasDefault: column.hasDefault,
        default: column.default,
        defaultFn: column.defaultFn,
        notNull: column.notNull,
        codec: codecOf(column),
      })),
      key,
      keyNames: new Set(keyNames),
      byJs: new Map(columns),
    };
    shapes.set(table, shape);
  }
  return shape;
}

/** A column's name in the database: Ponder's drizzle writes a key without an explicit name in snake_case. */
export function sqlName(js: string, column: Column): string {
  return (column as { keyAsName?: boolean }).keyAsName === false ? column.name : toSnakeCase(js);
}

/**
 * Fills a new row's absent columns with their defaults (null where none), refusing a null in a not-null column, and
 * gives each value the form a read of the database would (`normalize`): a later find sees what Ponder's would. The
 * row is a new object, and every array or JSON value in it a new one too (the mapping builds them), so nothing of the
 * caller's object is held.
 */
export function completeRow(table: PgTable, values: Row): Row {
  const { fills } = shapeOf(table);
  const row: Row = {};
  for (let i = 0; i < fills.length; i++) {
    const fill = fills[i]!;
    let value = values[fill.js];
    if (value === undefined && fill.hasDefault) value = fill.default !== undefined ? fill.default : fill.defaultFn?.();
    if (value === undefined || value === null) {
      if (fill.notNull)
        throw new Error(
          `Column '${getTableName(table)}.${fill.js}' violates not-null constraint (write-behind insert)`,
        );
      row[fill.js] = null;
    } else row[fill.js] = fill.codec.normalize(value);
  }
  return row;
}

/** An update's set applied to a copy of `row`: undefined leaves a column as it is, as in Ponder's store. */
export function updatedRow(table: PgTable, row: Row, set: Row): Row {
  const next = { ...row };
  const { byJs, keyNames } = shapeOf(table);
  for (const js in set) {
    const value = set[js];
    const column = byJs.get(js);
    if (value === undefined || column === undefined) continue;
    if (column.primary || keyNames.has(js)) {
      if (String(value) !== String(row[js])) throw new Error(`Primary key column '${js}' cannot be updated`);
      continue;
    }
    next[js] = value === null ? null : codecOf(column).normalize(value);
  }
  return next;
}

/**
 * A column's value in the two forms the store needs, each equal to what Ponder's store makes of it through the
 * column's driver mapping: `normalize` the value a read of the database hands back (Ponder's `normalizeColumn`),
 * `text` the column type's text input (COPY's field before escaping, a cast's operand), `copy` COPY's field. The
 * common columns get a shortcut for the values that map to themselves; anything else takes the mapping.
 */
interface Codec {
  normalize(value: unknown): unknown;
  text(value: unknown): string | null;
  copy(value: unknown): string | null;
}

const codecs = new WeakMap<Column, Codec>();

function codecOf(column: Column): Codec {
  let codec = codecs.get(column);
  if (codec === undefined) codecs.set(column, (codec = makeCodec(column)));
  return codec;
}

const ESCAPE = /([\\\b\f\n\r\t\v])/g;
const NEEDS_ESCAPE = /[\\\b\f\n\r\t\v]/;
const EVEN_HEX = /^0x(?:[0-9a-fA-F]{2})*$/;

const escapeCopy = (text: string | null): string | null =>
  text === null || !NEEDS_ESCAPE.test(text) ? text : text.replace(ESCAPE, "\\$1");

function makeCodec(column: Column): Codec {
  const normalize = (value: unknown) => normalizeByMapping(column, value);
  const text = (value: unknown) => textByMapping(column, value);
  const mapped: Codec = { normalize, text, copy: (value) => escapeCopy(text(value)) };
  switch (column.columnType) {
    // Ponder's text column strips NUL characters on the way in; a string without one maps to itself.
    case "PgText": {
      const plain = (value: unknown): value is string => typeof value === "string" && !value.includes("\0");
      return {
        normalize: (value) => (plain(value) ? value : normalize(value)),
        text: (value) => (plain(value) ? value : text(value)),
        copy: (value) => escapeCopy(plain(value) ? value : text(value)),
      };
    }
    // A bigint, an integer or a boolean is its own value; its text has nothing to escape.
    case "PgEvmBigint":
    case "PgInteger":
    case "PgBoolean": {
      const own =
        column.columnType === "PgEvmBigint" ? "bigint" : column.columnType === "PgInteger" ? "number" : "boolean";
      return {
        normalize: (value) => (typeof value === own ? value : normalize(value)),
        text: (value) => (typeof value === own ? String(value) : text(value)),
        copy: (value) => (typeof value === own ? String(value) : mapped.copy(value)),
      };
    }
  }
  if (isBytea(column)) {
    // A hex string for a bytea column (hex-bytes-column.ts) reads back as the same hex in lower case, and its text is
    // bytea's own hex input: the round trip through a Buffer cost more than the rest of an `indexed_log` row.
    const hex = (value: unknown): value is string => typeof value === "string" && EVEN_HEX.test(value);
    return {
      normalize: (value) => (hex(value) ? value.toLowerCase() : normalize(value)),
      text: (value) => (hex(value) ? `\\x${value.slice(2)}` : text(value)),
      // COPY's escape of bytea's `\x<hex>` is one backslash more: no scan of the hex.
      copy: (value) => (hex(value) ? `\\\\x${value.slice(2)}` : mapped.copy(value)),
    };
  }
  return mapped;
}

/** A value through the column's driver mapping and back (Ponder's `normalizeColumn`). */
function normalizeByMapping(column: Column, value: unknown): unknown {
  if (value === null || value === undefined || column.mapToDriverValue === undefined) return value ?? null;
  // A timestamp stays the handler's Date: copied, since the mapping builds no new one to hold.
  if (column.columnType === "PgTimestamp") return copyValue(value);
  if (Array.isArray(value) && column instanceof PgArray) {
    const base = column.baseColumn;
    return base.columnType === "PgTimestamp"
      ? copyValue(value)
      : value.map((v) => base.mapFromDriverValue(base.mapToDriverValue(v)));
  }
  return column.mapFromDriverValue(column.mapToDriverValue(value));
}

/** A value as its column type's text input reads it, through the column's driver mapping, or null. */
function textByMapping(column: Column, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const driver = column.mapToDriverValue === undefined ? value : column.mapToDriverValue(value);
  if (driver === null || driver === undefined) return null;
  if (Buffer.isBuffer(driver)) return `\\x${driver.toString("hex")}`;
  return String(driver);
}

/**
 * A handler's value, detached from the handler's object (an array or JSON it may change after the call): arrays and
 * plain objects copied member by member, anything else by `structuredClone` (which cost 2.5 % of the backfill for
 * every array and JSON value: docs/benchmarks.md).
 */
export function copyValue(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(copyValue);
  if (Object.getPrototypeOf(value) !== Object.prototype) return structuredClone(value);
  const out: Row = {};
  for (const key in value) out[key] = copyValue((value as Row)[key]);
  return out;
}

/** A row detached from the caller's object: a shallow copy, and a deep one of its array and JSON values. */
export function copyRow(row: Row): Row {
  const out: Row = { ...row };
  for (const js in out) {
    const value = out[js];
    if (typeof value === "object" && value !== null) out[js] = copyValue(value);
  }
  return out;
}

/** Roughly the bytes a held row takes, counted as Ponder's row cache counts them (its bound means the same). */
export function rowBytes(row: Row): number {
  let bytes = 24;
  for (const js in row) {
    const v = row[js];
    bytes +=
      8 +
      (typeof v === "string"
        ? 2 * v.length
        : typeof v === "bigint"
          ? 48
          : typeof v === "object" && v !== null
            ? 64
            : 8);
  }
  return bytes;
}

/** The key that identifies a row in its table: its primary key's driver values. */
export function keyOf(table: PgTable, row: Row): string {
  const { key } = shapeOf(table);
  // A one-column text key is its own driver value (and the key most lookups use: every entity's `id`).
  if (key.length === 1) {
    const value = row[key[0]![0]];
    if (typeof value === "string" && key[0]![1].columnType === "PgText") return value;
  }
  let out = "";
  for (const [js, column] of key) {
    const text = codecOf(column).copy(row[js]);
    // bytea's hex is read back in lower case, whatever case a handler wrote it in.
    out += `${isBytea(column) ? text?.toLowerCase() : text}\u0000`;
  }
  return out;
}

/** The key's columns of `row`, as a row of their own. */
export function keyColumns(table: PgTable, row: Row): Row {
  const out: Row = {};
  for (const [js] of shapeOf(table).key) out[js] = row[js];
  return out;
}

const byteaColumns = new WeakMap<Column, boolean>();
const isBytea = (column: Column): boolean => {
  let bytea = byteaColumns.get(column);
  if (bytea === undefined) byteaColumns.set(column, (bytea = column.getSQLType() === "bytea"));
  return bytea;
};

/** One value as its column type's text input reads it (COPY's field before escaping, a cast's operand), or null. */
export function valueText(column: Column, value: unknown): string | null {
  return codecOf(column).text(value);
}

/** Rows as the body of `COPY <table> FROM STDIN` (text format: tab-separated, `\N` for NULL, one row a line). */
export function copyText(table: PgTable, rows: Iterable<Row>): string {
  const { fills } = shapeOf(table);
  const lines: string[] = [];
  for (const row of rows) lines.push(copyLine(fills, row));
  return lines.join("\n");
}

/** One row's line of COPY text, without its newline. `fills`: the table's (`shapeOf`). */
export function copyLine(fills: readonly Fill[], row: Row): string {
  let line = "";
  for (let i = 0; i < fills.length; i++) {
    const fill = fills[i]!;
    const value = row[fill.js];
    const field = value === null || value === undefined ? null : fill.codec.copy(value);
    line += i === 0 ? (field ?? "\\N") : `\t${field ?? "\\N"}`;
  }
  return line;
}

const ARRAY_ESCAPE = /["\\]/g;
const NEEDS_ARRAY_ESCAPE = /["\\]/;

/**
 * Values as one PostgreSQL array literal (`{"a",NULL,"b\"c"}`), a `text[]` parameter of the statements that join a
 * batch's rows by `unnest`: made by a join, so the driver gets one flat string, where its own conversion of a JS array
 * builds a rope of five parts per element that sending it must flatten.
 */
export function arrayLiteral(values: readonly (string | null)[]): string {
  const elements = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    elements[i] =
      value === null ? "NULL" : `"${NEEDS_ARRAY_ESCAPE.test(value) ? value.replace(ARRAY_ESCAPE, "\\$&") : value}"`;
  }
  return `{${elements.join(",")}}`;
}
