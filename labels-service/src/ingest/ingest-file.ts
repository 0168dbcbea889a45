import { closeSync, createReadStream, openSync, readSync, statSync } from "node:fs";
import { basename } from "node:path";
import { pipeline } from "node:stream";
import { createGunzip } from "node:zlib";
import type { IngestCounts } from "../store/label-writer.js";
import { readCsv } from "./formats/csv.js";
import { readEnsrainbow } from "./formats/ensrainbow.js";
import { readSqlDump } from "./formats/sql-dump.js";
import { readText } from "./formats/text.js";
import { type RunIngestOptions, runIngest } from "./run-ingest.js";
import type { FormatReader } from "./sink.js";

export const INPUT_FORMATS = ["text", "csv", "ensrainbow", "sql-dump"] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];

const READERS: Record<InputFormat, FormatReader> = {
  text: readText,
  csv: readCsv,
  ensrainbow: readEnsrainbow,
  "sql-dump": readSqlDump,
};

/** Format from the file name: .ensrainbow, .sql / .sql.gz, .csv (optionally .gz); anything else is text. */
export function formatFromFileName(file: string): InputFormat {
  const name = basename(file).toLowerCase().replace(/\.gz$/, "");
  if (name.endsWith(".ensrainbow")) return "ensrainbow";
  if (name.endsWith(".sql")) return "sql-dump";
  if (name.endsWith(".csv")) return "csv";
  return "text";
}

function isGzip(file: string): boolean {
  const fd = openSync(file, "r");
  try {
    const magic = Buffer.alloc(2);
    return readSync(fd, magic, 0, 2, 0) === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
  } finally {
    closeSync(fd);
  }
}

export interface IngestFileOptions extends RunIngestOptions {
  file: string;
  /** Overrides detection by file name. */
  format?: InputFormat;
  /** Required for the first text/CSV ingest; must match the database (and an .ensrainbow header) otherwise. */
  labelSetId?: string;
}

export type IngestResult = IngestCounts;

/**
 * Streams one input file into the database as its next label set version (0 for a new database).
 * Atomic: on any error, abort or kill the database keeps its previous version. Gzip input is detected by content.
 */
export async function ingestFile(options: IngestFileOptions): Promise<IngestResult> {
  const format = options.format ?? formatFromFileName(options.file);
  const totalBytes = statSync(options.file).size;
  const fileStream = createReadStream(options.file, { highWaterMark: 1 << 20 });
  // pipeline forwards a read error into the gunzip stream the reader iterates; the no-op callback only
  // keeps an error after an early stop (the reader threw first) from surfacing as unhandled.
  const chunks: AsyncIterable<Buffer> = isGzip(options.file)
    ? pipeline(fileStream, createGunzip({ chunkSize: 1 << 20 }), () => {})
    : fileStream;
  fileStream.on("error", () => {});
  try {
    return await runIngest(
      { ...options, inputName: options.file },
      (sink) => READERS[format](chunks, options.file, sink, options.labelSetId),
      {
        bytesRead: () => fileStream.bytesRead,
        totalBytes,
      },
    );
  } finally {
    fileStream.destroy();
  }
}
