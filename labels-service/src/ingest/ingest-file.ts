import { createReadStream, statSync } from "node:fs";
import { basename } from "node:path";
import { pipeline, Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import type { IngestCounts } from "../store/label-writer.js";
import { readCsv } from "./formats/csv.js";
import { readEnsrainbow } from "./formats/ensrainbow.js";
import { readSqlDump } from "./formats/sql-dump.js";
import { readText } from "./formats/text.js";
import { IngestAbortedError, type RunIngestOptions, runIngest } from "./run-ingest.js";
import type { FormatReader } from "./sink.js";

/** The file name that reads standard input instead, for a pipe: `zcat labels.txt.gz | labels-service ingest -`. */
export const STDIN = "-";

/** How messages name an input: its path, or "standard input". */
export const inputNameOf = (file: string): string => (file === STDIN ? "standard input" : file);

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

/**
 * The input's bytes, gunzipped when they begin with gzip's magic number: detected by content, from the first bytes
 * read, so that a pipe (read once) is detected as a file is.
 */
async function* gunzipIfCompressed(source: Readable): AsyncGenerator<Buffer> {
  const iterator = source[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let head = Buffer.alloc(0);
  let ended = false;
  while (head.length < 2 && !ended) {
    const next = await iterator.next();
    if (next.done) ended = true;
    else head = Buffer.concat([head, next.value]);
  }
  async function* all(): AsyncGenerator<Buffer> {
    if (head.length > 0) yield head;
    while (!ended) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  if (head[0] !== 0x1f || head[1] !== 0x8b) return yield* all();
  // pipeline forwards a read error into the gunzip stream iterated here; the no-op callback only keeps an error
  // after an early stop (the reader threw first) from surfacing as unhandled.
  yield* pipeline(Readable.from(all()), createGunzip({ chunkSize: 1 << 20 }), () => {});
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
 * Streams one input file (or standard input, `STDIN`) into the database as its next label set version (0 for a new
 * database). Atomic: on any error, abort or kill the database keeps its previous version; from a pipe nothing is
 * committed before its end. Gzip input is detected by content.
 */
export async function ingestFile(options: IngestFileOptions): Promise<IngestResult> {
  const fromStdin = options.file === STDIN;
  const inputName = inputNameOf(options.file);
  const format = options.format ?? (fromStdin ? "text" : formatFromFileName(options.file));
  const source = fromStdin ? process.stdin : createReadStream(options.file, { highWaterMark: 1 << 20 });
  source.on("error", () => {});
  // An abort ends a read that waits, too: a pipe whose writer stalls would otherwise hold the ingest until more came.
  const abortRead = () => source.destroy(new IngestAbortedError());
  options.signal?.addEventListener("abort", abortRead, { once: true });
  try {
    return await runIngest(
      { ...options, inputName },
      (sink) => READERS[format](gunzipIfCompressed(source), inputName, sink, options.labelSetId),
      {
        bytesRead: () => source.bytesRead,
        totalBytes: fromStdin ? null : statSync(options.file).size,
      },
    );
  } finally {
    options.signal?.removeEventListener("abort", abortRead);
    source.destroy();
  }
}
