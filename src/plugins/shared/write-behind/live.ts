import type { PgTable } from "drizzle-orm/pg-core";
import { getConfig } from "../../../config";
import type { PonderBatchEvent } from "../../../runtime/ponder-hooks";
import { liveDbOf } from "./live-db";
import { LiveRows } from "./live-rows";
import { KeyPredictor } from "./prefetch";
import type { Row } from "./rows";
import { LIVE_TABLES } from "./tables";

/*
 * The process's one live-table store and its key predictor (Ponder indexes one batch at a time), and the event whose
 * handlers run now: a read the store answers from the database is learned against it.
 */

let current: PonderBatchEvent | undefined;

/** The event the handlers now run for (register.ts), in the shape Ponder's profile reads. */
export function setCurrentEvent(name: string, chainId: number, event: unknown): void {
  current = {
    type: "log",
    checkpoint: "",
    eventCallback: { name },
    chain: { id: chainId },
    event: event as PonderBatchEvent["event"],
  };
}

export const keyPredictor = new KeyPredictor();

export const liveRows = new LiveRows(
  LIVE_TABLES,
  () => getConfig().writeBehindBytes,
  (table: PgTable, keyRow: Row) => keyPredictor.learn(current, table, keyRow),
);

/** `context.db` on a live table inside a batch (./db.ts routes the calls). */
export const liveDb = liveDbOf(liveRows);
