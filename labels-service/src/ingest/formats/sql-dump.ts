import { isUtf8 } from "node:buffer";
import { normalizeLabelhash } from "../../labelhash.js";
import { forEachLine } from "../lines.js";
import { MalformedInputError } from "../malformed-input.js";
import { type FormatReader, lineLocation } from "../sink.js";
import { unescapeCopyField } from "./copy-text.js";

const COPY_PATTERN = /^COPY\s+(?:[\w".]+\.)?"?ens_names"?\s*\(([^)]*)\)\s+FROM\s+stdin;$/i;
const END_OF_DATA = "\\.";
const NULL_FIELD = "\\N";

/**
 * The original ENS rainbow table: a (gunzipped) PostgreSQL dump whose `COPY ... ens_names (hash, name) FROM stdin;`
 * block holds rows of `0x<labelhash>\t<label>`. The set the subgraph heals with, so its id defaults to "subgraph".
 * A dump that ends before the `\.` end-of-data marker is truncated and rejected.
 */
export const readSqlDump: FormatReader = async (chunks, file, sink, labelSetId) => {
  sink.start({ labelSetId: labelSetId ?? "subgraph" }, lineLocation);
  let phase: "preamble" | "rows" | "done" = "preamble";
  let hashColumn = -1;
  let labelColumn = -1;
  let columnCount = 0;

  await forEachLine(
    chunks,
    (line, lineNumber) => {
      if (phase === "done") return;
      if (phase === "preamble") {
        const copy = COPY_PATTERN.exec(line.toString("utf8").trim());
        if (copy === null) return;
        const columns = copy[1].split(",").map((c) => c.trim().replace(/"/g, ""));
        hashColumn = columns.findIndex((c) => c === "hash" || c === "labelhash");
        labelColumn = columns.findIndex((c) => c === "name" || c === "label");
        if (hashColumn === -1 || labelColumn === -1) {
          throw new MalformedInputError(
            file,
            `line ${lineNumber}`,
            `the COPY columns (${copy[1]}) name no hash and name column`,
          );
        }
        columnCount = columns.length;
        phase = "rows";
        return;
      }
      const where = `line ${lineNumber}`;
      if (line.length === 2 && line.toString("latin1") === END_OF_DATA) {
        phase = "done";
        return;
      }
      const fields = splitTabs(line);
      if (fields.length !== columnCount) {
        throw new MalformedInputError(
          file,
          where,
          `expected ${columnCount} tab-separated columns, found ${fields.length}`,
        );
      }
      if (fields[labelColumn].toString("latin1") === NULL_FIELD)
        throw new MalformedInputError(file, where, "the label is NULL");
      const label = unescapeCopyField(fields[labelColumn]);
      if (!isUtf8(label)) throw new MalformedInputError(file, where, "the label is not valid UTF-8");
      const given = normalizeLabelhash(fields[hashColumn].toString("latin1"));
      if (given === null)
        throw new MalformedInputError(file, where, "the hash column is not a labelhash (0x + 64 hex digits)");
      sink.record(label, Buffer.from(given.slice(2), "hex"), lineNumber);
    },
    () => sink.chunkDone(),
  );
  if (phase === "preamble")
    throw new MalformedInputError(file, "end of file", "no `COPY ... ens_names (...) FROM stdin;` block found");
  if (phase === "rows")
    throw new MalformedInputError(
      file,
      "end of file",
      "the COPY block ends without its `\\.` end-of-data line (truncated dump?)",
    );
};

function splitTabs(line: Buffer): Buffer[] {
  const fields: Buffer[] = [];
  let start = 0;
  for (let tab = line.indexOf(0x09); tab !== -1; tab = line.indexOf(0x09, start)) {
    fields.push(line.subarray(start, tab));
    start = tab + 1;
  }
  fields.push(line.subarray(start));
  return fields;
}
