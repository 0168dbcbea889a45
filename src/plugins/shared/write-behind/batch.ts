import type { PgTable } from "drizzle-orm/pg-core";
import { getConfig } from "../../../config";
import { writeBehindTotals } from "../../../runtime/metrics";
import type { PonderBatchEvent, PonderBatchTransaction } from "../../../runtime/ponder-hooks";
import { copyRows } from "./copy";
import { closePreviousVersions, isHistoryTable, settleValidTo } from "./history-valid-to";
import { keyPredictor, liveRows } from "./live";
import type { Row } from "./rows";

/*
 * The rows the handlers of one backfill batch inserted into the write-behind tables, held until Ponder flushes the
 * batch: then one COPY per table, in the batch's transaction, after Ponder's own rows and before its checkpoint (patch
 * omnichain-backfill-batch-hooks). A batch Ponder runs again after a failure starts empty again (`begin`), so no row
 * is written twice; outside a batch (setup, realtime, the other orderings) nothing is held.
 */

export class BatchRows {
  private readonly tables = new Map<PgTable, Map<string, Row>>();
  private isOpen = false;

  get open(): boolean {
    return this.isOpen;
  }

  /**
   * Opens a batch: the insert-only rows start empty; with the live tables (NAMEINDEX_WRITE_BEHIND_LIVE) and Ponder's
   * transaction and events, the live store begins it and loads the rows the events predict.
   */
  async begin(tx?: PonderBatchTransaction, events?: readonly PonderBatchEvent[]): Promise<void> {
    this.tables.clear();
    this.isOpen = true;
    if (tx === undefined || events === undefined || !getConfig().writeBehindLive) return;
    await liveRows.begin(tx, events[0]?.checkpoint ?? "", events.at(-1)?.checkpoint ?? "");
    await keyPredictor.prefetch(tx, events, liveRows);
  }

  get(table: PgTable, key: string): Row | undefined {
    return this.tables.get(table)?.get(key);
  }

  /** Holds `row` under `key`: a new key goes last, a held key keeps its place (an upsert of a row of this batch). */
  set(table: PgTable, key: string, row: Row): void {
    let rows = this.tables.get(table);
    if (rows === undefined) this.tables.set(table, (rows = new Map()));
    rows.set(key, row);
  }

  /** Writes the batch's rows in its transaction and closes it. */
  async flush(tx: PonderBatchTransaction): Promise<void> {
    this.isOpen = false;
    const started = performance.now();
    for (const [table, rows] of this.tables) {
      if (isHistoryTable(table)) await closePreviousVersions(tx, table, settleValidTo(rows.values()));
      await copyRows(tx, table, [...rows.values()]);
      writeBehindTotals.rows += rows.size;
    }
    if (liveRows.started) await liveRows.flush(tx);
    writeBehindTotals.copySeconds += (performance.now() - started) / 1000;
    this.tables.clear();
  }
}

/** The one batch of this process (Ponder indexes one batch at a time). */
export const backfillBatch = new BatchRows();
