import { once } from "node:events";
import type { PgTable } from "drizzle-orm/pg-core";
import copyStreams from "pg-copy-streams";
import type { PonderBatchTransaction } from "../../../runtime/ponder-hooks";
import { copyLine, type Row, shapeOf } from "./rows";

/*
 * `COPY … FROM` through the transaction Ponder commits a backfill batch in (its query builder, as Ponder's own flush
 * uses it: the pg client of the transaction on PostgreSQL, PGlite's `/dev/blob` on PGlite).
 */

/**
 * Rows per COPY on PGlite (its `/dev/blob` takes one whole blob) and per `UPDATE … FROM unnest` (./writes.ts), so a
 * batch's whole text for a table (hundreds of MiB at 50,000 names) is never held at once. PostgreSQL takes a table's
 * rows in one COPY, its text made a buffer at a time as the socket takes it.
 */
export const ROWS_PER_PIECE = 10_000;

/**
 * Characters of COPY text per buffer handed to the socket (or to PGlite's blob). The text is made as a string a row at a
 * time and turned into bytes in buffers of this size: a string of a whole piece, built by concatenation, is a rope of
 * millions of parts that its conversion to bytes must first flatten, which cost more than making the text
 * (docs/benchmarks.md, "COPY text in small buffers").
 */
export const CHARS_PER_BUFFER = 64 * 1024;

/** COPYs `rows` into `table`. */
export async function copyRows(tx: PonderBatchTransaction, table: PgTable, rows: Row[]): Promise<void> {
  if (rows.length === 0) return;
  const { target } = shapeOf(table);
  if (tx.$dialect === "pglite") {
    for (let i = 0; i < rows.length; i += ROWS_PER_PIECE) {
      const blob = new Blob([...copyBuffers(table, rows, i, Math.min(i + ROWS_PER_PIECE, rows.length))]);
      await tx.$client.query(`COPY ${target} FROM '/dev/blob'`, [], { blob });
    }
    return;
  }
  await copyPiecesIntoPostgres(tx.$client, target, copyBuffers(table, rows, 0, rows.length));
}

/** The COPY text of `rows[from, to)`, every line ended by a newline, in buffers of about CHARS_PER_BUFFER characters. */
function* copyBuffers(table: PgTable, rows: Row[], from: number, to: number): Generator<Buffer<ArrayBuffer>> {
  const { fills } = shapeOf(table);
  let text = "";
  for (let i = from; i < to; i++) {
    text += `${copyLine(fills, rows[i]!)}\n`;
    if (text.length >= CHARS_PER_BUFFER) {
      yield Buffer.from(text);
      text = "";
    }
  }
  if (text.length > 0) yield Buffer.from(text);
}

/** Bytes the COPY stream queues before the next piece is made: a few buffers, not a drain event per buffer. */
const STREAM_BYTES = 1024 * 1024;

type CopyClient = { query: (stream: ReturnType<typeof copyStreams.from>) => ReturnType<typeof copyStreams.from> };

/** COPY text into `target` through a pg client (a transaction's, or a benchmark's own). */
export function copyTextIntoPostgres(client: CopyClient, target: string, text: string): Promise<void> {
  return copyPiecesIntoPostgres(client, target, [text]);
}

/**
 * COPY text made piece by piece into `target`: a piece is made once the stream takes more (up to STREAM_BYTES queued),
 * so the text of a whole table is never held at once.
 */
async function copyPiecesIntoPostgres(
  client: CopyClient,
  target: string,
  pieces: Iterable<string | Buffer>,
): Promise<void> {
  const stream = client.query(copyStreams.from(`COPY ${target} FROM STDIN`, { highWaterMark: STREAM_BYTES }));
  const finished = once(stream, "finish");
  for (const piece of pieces) {
    if (!stream.write(piece)) await Promise.race([once(stream, "drain"), finished]);
  }
  stream.end();
  await finished;
}
