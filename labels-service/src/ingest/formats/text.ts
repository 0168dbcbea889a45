import { isUtf8 } from "node:buffer";
import { forEachLine } from "../lines.js";
import { MalformedInputError } from "../malformed-input.js";
import { type FormatReader, lineLocation } from "../sink.js";

/**
 * Plain text: one label per line, taken byte for byte (only the line ending is removed).
 * Blank lines are skipped, since they are far more often a stray newline than a deliberate empty label;
 * an empty label can be given in CSV as "" instead.
 */
export const readText: FormatReader = async (chunks, file, sink, labelSetId) => {
  sink.start({ labelSetId }, lineLocation);
  await forEachLine(
    chunks,
    (line, lineNumber) => {
      if (line.length === 0) return;
      if (!isUtf8(line)) throw new MalformedInputError(file, `line ${lineNumber}`, "the label is not valid UTF-8");
      sink.record(line, null, lineNumber);
    },
    () => sink.chunkDone(),
  );
};
