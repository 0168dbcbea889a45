import { isUtf8 } from "node:buffer";
import { normalizeLabelhash } from "../../labelhash.js";
import { forEachLine } from "../lines.js";
import { MalformedInputError } from "../malformed-input.js";
import { type FormatReader, lineLocation } from "../sink.js";
import { parseCsvRecord } from "./csv-record.js";

/**
 * CSV with one column (label) or two (label, labelhash), no header row, RFC 4180 quoting.
 * A given labelhash must equal keccak256 of the label: a wrong one would heal to a wrong name.
 */
// A quoted field may span lines, but no label is this long: past it, a stray quote is the likelier story.
const MAX_RECORD_BYTES = 1 << 20;

export const readCsv: FormatReader = async (chunks, file, sink, labelSetId) => {
  sink.start({ labelSetId }, lineLocation);
  let pending: Buffer | null = null;
  let pendingLine = 0;

  const onRecord = (record: Buffer, lineNumber: number) => {
    const where = `line ${lineNumber}`;
    const parsed = parseCsvRecord(record);
    if ("error" in parsed) throw new MalformedInputError(file, where, parsed.error);
    if ("incomplete" in parsed) return false;
    const { fields } = parsed;
    if (fields.length > 2)
      throw new MalformedInputError(file, where, `expected 1 or 2 columns (label[,labelhash]), found ${fields.length}`);
    const label = fields[0];
    if (!isUtf8(label)) throw new MalformedInputError(file, where, "the label is not valid UTF-8");
    let expected: Buffer | null = null;
    if (fields.length === 2) {
      const given = normalizeLabelhash(fields[1].toString("latin1"));
      if (given === null)
        throw new MalformedInputError(file, where, "the second column is not a labelhash (0x + 64 hex digits)");
      expected = Buffer.from(given.slice(2), "hex");
    }
    sink.record(label, expected, lineNumber);
    return true;
  };

  await forEachLine(
    chunks,
    (line, lineNumber) => {
      if (pending !== null) {
        pending = Buffer.concat([pending, Buffer.from("\n"), line]);
        if (pending.length > MAX_RECORD_BYTES) {
          throw new MalformedInputError(file, `line ${pendingLine}`, "a quoted field is never closed");
        }
        if (onRecord(pending, pendingLine)) pending = null;
        return;
      }
      if (line.length === 0) return;
      if (!onRecord(line, lineNumber)) {
        pending = Buffer.from(line);
        pendingLine = lineNumber;
      }
    },
    () => sink.chunkDone(),
  );
  if (pending !== null) throw new MalformedInputError(file, `line ${pendingLine}`, "a quoted field is never closed");
};
