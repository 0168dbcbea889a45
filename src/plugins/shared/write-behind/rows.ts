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
  /** The primary key's columns. */
  key: [string, Column][];
  byJs: Map<string, Column>;
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
      key,
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
 * gives each value the form a read of the database would (`normalize`): a later find sees what Ponder's would.
 */
export function completeRow(table: PgTable, values: Row): Row {
  const row: Row = {};
  for (const [js, column] of shapeOf(table).columns) {
    let value = values[js];
    if (value === undefined && column.hasDefault) {
      value = column.default !== undefined ? column.default : column.defaultFn?.();
    }
    if (value === undefined) value = null;
    if (value === null && column.notNull)
      throw new Error(`Column '${getTableName(table)}.${js}' violates not-null constraint (write-behind insert)`);
    row[js] = normalize(column, value);
  }
  return row;
}

/** An update's set applied to a copy of `row`: undefined leaves a column as it is, as in Ponder's store. */
export function updatedRow(table: PgTable, row: Row, set: Row): Row {
  const next = { ...row };
  const columns = shapeOf(table).byJs;
  for (const js in set) {
    const value = set[js];
    const column = columns.get(js);
    if (value === undefined || column === undefined) continue;
    if (column.primary || shapeOf(table).key.some(([k]) => k === js)) {
      if (String(value) !== String(row[js])) throw new Error(`Primary key column '${js}' cannot be updated`);
      continue;
    }
    next[js] = normalize(column, copyValue(value));
  }
  return next;
}

/** A value as the database hands it back (Ponder's `normalizeColumn`): through the column's driver mapping and back. */
function normalize(column: Column, value: unknown): unknown {
  if (value === null || value === undefined || column.mapToDriverValue === undefined) return value ?? null;
  if (column.columnType === "PgTimestamp") return value;
  if (Array.isArray(value) && column instanceof PgArray) {
    const base = column.baseColumn;
    return base.columnType === "PgTimestamp"
      ? value
      : value.map((v) => base.mapFromDriverValue(base.mapToDriverValue(v)));
  }
  return column.mapFromDriverValue(column.mapToDriverValue(value));
}

/**
 * A handler's value, detached from the handler's object (an array or JSON it may change after the call). An array
 * column's array is copied element by element: `structuredClone` cost 2.5 % of the backfill (docs/benchmarks.md).
 */
export function copyValue(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  return Array.isArray(value) ? value.map(copyValue) : structuredClone(value);
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
  for (const [js, column] of shapeOf(table).key) {
    const text = driverText(column, row[js]);
    // bytea's hex is read back in lower case, whatever case a handler wrote it in.
    out += `${isBytea(column) ? text?.toLowerCase() : text}\u0000`;
  }
  return out;
}

const byteaColumns = new WeakMap<Column, boolean>();
const isBytea = (column: Column): boolean => {
  let bytea = byteaColumns.get(column);
  if (bytea === undefined) byteaColumns.set(column, (bytea = column.getSQLType() === "bytea"));
  return bytea;
};

const ESCAPE = /([\\\b\f\n\r\t\v])/g;
const EVEN_HEX = /^0x(?:[0-9a-fA-F]{2})*$/;

/** One value in COPY's text format, or null for SQL NULL. */
function driverText(column: Column, value: unknown): string | null {
  const text = valueText(column, value);
  if (text === null) return null;
  // bytea's `\x<hex>` (most of an `indexed_log` row) has one character to escape, its backslash: no scan of the hex.
  return isBytea(column) && text.startsWith("\\x") ? `\\${text}` : text.replace(ESCAPE, "\\$1");
}

/** One value as its column type's text input reads it (COPY's field before escaping, a cast's operand), or null. */
export function valueText(column: Column, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  // A hex string for a bytea column (hex-bytes-column.ts) as bytea's own hex input, the bytes its driver value has:
  // the round trip through a Buffer cost more than the rest of an `indexed_log` row.
  if (typeof value === "string" && isBytea(column) && EVEN_HEX.test(value)) return `\\x${value.slice(2)}`;
  const driver = column.mapToDriverValue === undefined ? value : column.mapToDriverValue(value);
  if (driver === null || driver === undefined) return null;
  if (Buffer.isBuffer(driver)) return `\\x${driver.toString("hex")}`;
  return String(driver);
}

/** Rows as the body of `COPY <table> FROM STDIN` (text format: tab-separated, `\N` for NULL, one row a line). */
export function copyText(table: PgTable, rows: Iterable<Row>): string {
  const { columns } = shapeOf(table);
  const lines: string[] = [];
  for (const row of rows) {
    const fields: string[] = [];
    for (const [js, column] of columns) fields.push(driverText(column, row[js]) ?? "\\N");
    lines.push(fields.join("\t"));
  }
  return lines.join("\n");
}
