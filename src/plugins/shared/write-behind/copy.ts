import { once } from "node:events";
import type { PgTable } from "drizzle-orm/pg-core";
import copyStreams from "pg-copy-streams";
import type { PonderBatchTransaction } from "../../../runtime/ponder-hooks";
import { copyText, type Row, shapeOf } from "./rows";

/*
 * `COPY … FROM` through the transaction Ponder commits a backfill batch in (its query builder, as Ponder's own flush
 * uses it: the pg client of the transaction on PostgreSQL, PGlite's `/dev/blob` on PGlite).
 */

/**
 * Rows per piece of a table's COPY text: on PostgreSQL the pieces are written one after another into one COPY, on
 * PGlite each is a COPY of its own (its `/dev/blob` takes one whole blob), so a batch's whole text for a table
 * (hundreds of MiB at 50,000 names) is never held at once.
 */
export const ROWS_PER_PIECE = 10_000;

/** COPYs `rows` into `table`. */
export async function copyRows(tx: PonderBatchTransaction, table: PgTable, rows: Row[]): Promise<void> {
  if (rows.length === 0) return;
  const { target } = shapeOf(table);
  if (tx.$dialect === "pglite") {
    for (const piece of piecesOf(table, rows))
      await tx.$client.query(`COPY ${target} FROM '/dev/blob'`, [], { blob: new Blob([piece]) });
    return;
  }
  await copyPiecesIntoPostgres(tx.$client, target, piecesOf(table, rows));
}

function* piecesOf(table: PgTable, rows: Row[]): Generator<string> {
  for (let i = 0; i < rows.length; i += ROWS_PER_PIECE) yield `${copyText(table, rows.slice(i, i + ROWS_PER_PIECE))}\n`;
}

type CopyClient = { query: (stream: ReturnType<typeof copyStreams.from>) => ReturnType<typeof copyStreams.from> };

/** COPY text into `target` through a pg client (a transaction's, or a benchmark's own). */
export function copyTextIntoPostgres(client: CopyClient, target: string, text: string): Promise<void> {
  return copyPiecesIntoPostgres(client, target, [text]);
}

/** COPY text made piece by piece into `target`: each piece is made once the previous one has gone to the socket. */
async function copyPiecesIntoPostgres(client: CopyClient, target: string, pieces: Iterable<string>): Promise<void> {
  const stream = client.query(copyStreams.from(`COPY ${target} FROM STDIN`));
  const finished = once(stream, "finish");
  for (const piece of pieces) {
    if (!stream.write(piece)) await Promise.race([once(stream, "drain"), finished]);
  }
  stream.end();
  await finished;
}
