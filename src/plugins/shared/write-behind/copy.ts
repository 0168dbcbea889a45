import type { PgTable } from "drizzle-orm/pg-core";
import copyStreams from "pg-copy-streams";
import type { PonderBatchTransaction } from "../../../runtime/ponder-hooks";
import { copyText, type Row, shapeOf } from "./rows";

/*
 * `COPY … FROM` through the transaction Ponder commits a backfill batch in (its query builder, as Ponder's own flush
 * uses it: the pg client of the transaction on PostgreSQL, PGlite's `/dev/blob` on PGlite).
 */

/** COPYs `rows` into `table`, or into `into` (a temporary table of the same columns). */
export async function copyRows(tx: PonderBatchTransaction, table: PgTable, rows: Row[], into?: string): Promise<void> {
  if (rows.length === 0) return;
  const target = into ?? shapeOf(table).target;
  const text = copyText(table, rows);
  if (tx.$dialect === "pglite") {
    await tx.$client.query(`COPY ${target} FROM '/dev/blob'`, [], { blob: new Blob([text]) });
    return;
  }
  await copyTextIntoPostgres(tx.$client, target, text);
}

/** COPY text into `target` through a pg client (a transaction's, or a benchmark's own). */
export async function copyTextIntoPostgres(
  client: { query: (stream: ReturnType<typeof copyStreams.from>) => ReturnType<typeof copyStreams.from> },
  target: string,
  text: string,
): Promise<void> {
  const stream = client.query(copyStreams.from(`COPY ${target} FROM STDIN`));
  await new Promise<void>((resolve, reject) => {
    stream.on("finish", resolve);
    stream.on("error", reject);
    stream.end(text);
  });
}
