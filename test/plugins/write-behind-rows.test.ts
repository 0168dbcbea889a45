import { type Column, getTableColumns } from "drizzle-orm";
import { PgArray } from "drizzle-orm/pg-core";
import { onchainTable } from "ponder";
import { describe, expect, it } from "vitest";
import { hexBytes } from "../../src/lib/hex-bytes-column";
import {
  arrayLiteral,
  completeRow,
  copyRow,
  copyText,
  keyOf,
  valueText,
} from "../../src/plugins/shared/write-behind/rows";

/*
 * The write-behind store's rows must be, value for value, what Ponder's store makes of a handler's row: the value a
 * read hands back (the column's driver mapping there and back) and the COPY field (the driver value as text, escaped).
 * rows.ts takes shortcuts for the common columns; here every kind of column the schema uses, with the values that
 * take a shortcut and those that must not, is checked against the mapping itself.
 */

const table = onchainTable("codec_sample", (t) => ({
  id: t.text().primaryKey(),
  label: t.text(),
  hash: t.hex(),
  amount: t.bigint(),
  count: t.integer(),
  flag: t.boolean(),
  names: t.text().array(),
  amounts: t.bigint().array(),
  args: t.json(),
  bytes: hexBytes("bytes"),
  at: t.timestamp(),
}));

const columns = Object.entries(getTableColumns(table)) as [string, Column][];

/** Ponder's store: through the driver mapping and back; a timestamp stays the Date it was (its `normalizeColumn`). */
const readBack = (column: Column, value: unknown): unknown => {
  if (value === null) return null;
  if (column.columnType === "PgTimestamp") return value;
  if (Array.isArray(value) && column instanceof PgArray) {
    const base = column.baseColumn;
    return value.map((v) => base.mapFromDriverValue(base.mapToDriverValue(v)));
  }
  return column.mapFromDriverValue(column.mapToDriverValue(value));
};

/**
 * COPY's text field of a value: its driver value as text, backslashes and control characters escaped. bytea's hex
 * input reads either case: a handler's hex goes as written.
 */
const copyField = (column: Column, value: unknown): string =>
  value === null ? "\\N" : inputText(column, value).replace(/([\\\b\f\n\r\t\v])/g, "\\$1");

/** A value as its column type's text input reads it. */
const inputText = (column: Column, value: unknown): string => {
  const driver = column.mapToDriverValue(value);
  return Buffer.isBuffer(driver) ? `\\x${(value as string).slice(2)}` : String(driver);
};

const values: Record<string, unknown[]> = {
  label: ["plain", "tab\there", "back\\slash", "nul\0byte", "line\nbreak", "", null],
  hash: ["0xabcdef", "0xABCDEF", "0xabc", null],
  amount: [0n, -5n, 2n ** 200n, null],
  count: [0, -1, 2 ** 31 - 1, null],
  flag: [true, false, null],
  names: [["a", "b\tc", "d\0e"], [], null],
  amounts: [[1n, 2n ** 100n], [], null],
  args: [{ a: "1", nested: { b: [1, 2] } }, [], null],
  bytes: ["0xdeadbeef", "0xDEADBEEF", "0x", null],
  at: [new Date(0), new Date("2026-11-30T08:00:00.123Z"), null],
};

describe("the write-behind store's rows", () => {
  for (const [js, column] of columns.filter(([js]) => js !== "id")) {
    it(`gives the ${js} column (${column.columnType}) the read-back value and the COPY field Ponder's store would`, () => {
      for (const value of values[js]!) {
        const row = completeRow(table, { id: "x", [js]: value });
        expect(row[js], `${js} = ${String(value)}`).toEqual(readBack(column, value));
        const line = columns.map(([name, c]) => (name === "id" ? "x" : name === js ? copyField(c, value) : "\\N"));
        expect(copyText(table, [{ id: "x", [js]: value }]), `${js} = ${String(value)}`).toBe(line.join("\t"));
        if (value !== null && !Array.isArray(value) && typeof value !== "object")
          expect(valueText(column, value)).toBe(inputText(column, value));
      }
    });
  }

  it("holds nothing of the caller's arrays and JSON values", () => {
    const names = ["a"];
    const args = { a: { b: "1" } };
    const at = new Date(0);
    const row = completeRow(table, { id: "x", names, args, at });
    names.push("changed");
    args.a.b = "changed";
    at.setTime(1);
    expect(row.names).toEqual(["a"]);
    expect(row.args).toEqual({ a: { b: "1" } });
    expect(row.at).toEqual(new Date(0));
    const copy = copyRow(row);
    (copy.args as { a: { b: string } }).a.b = "again";
    (copy.names as string[]).push("again");
    expect(row).toEqual(completeRow(table, { id: "x", names: ["a"], args: { a: { b: "1" } }, at: new Date(0) }));
  });

  it("keys a bytea column by its hex in lower case, whatever case it was written in", () => {
    const keyed = onchainTable("codec_keyed", (t) => ({ bytes: hexBytes("bytes").primaryKey(), n: t.integer() }));
    expect(keyOf(keyed, { bytes: "0xABCD" })).toBe(keyOf(keyed, { bytes: "0xabcd" }));
  });

  it("lays rows out as COPY text: tab-separated fields, one row a line", () => {
    const text = copyText(table, [{ id: "a" }, { id: "b", count: 2 }]);
    expect(text.split("\n")).toEqual([
      ["a", ...columns.slice(1).map(() => "\\N")].join("\t"),
      ["b", ...columns.slice(1).map(([js]) => (js === "count" ? "2" : "\\N"))].join("\t"),
    ]);
  });

  it("writes an array literal as PostgreSQL reads it: every element quoted, its quotes and backslashes escaped", () => {
    expect(arrayLiteral(["a", null, 'b"c', "d\\e", "", "NULL", "{x,y}"])).toBe(
      '{"a",NULL,"b\\"c","d\\\\e","","NULL","{x,y}"}',
    );
    expect(arrayLiteral([])).toBe("{}");
  });
});
