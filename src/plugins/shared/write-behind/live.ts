import { getTableName } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { getConfig } from "../../../config";
import { writeBehindMissesByRead } from "../../../runtime/metrics";
import type { PonderBatchEvent } from "../../../runtime/ponder-hooks";
import { liveDbOf } from "./live-db";
import { LiveRows } from "./live-rows";
import { KeyPredictor } from "./prefetch";
import type { Row } from "./rows";
import { LIVE_TABLES } from "./tables";

/*
 * The process's one live-table store and its key predictor (Ponder indexes one batch at a time), and the event whose
 * handlers run now: a read the store answers from the database is learned against it, and counted by handler and table;
 * a pattern it teaches loads the key for the batch's other events of the handler at once.
 */

const current: { name: string; chainId: number; event: unknown } = { name: "", chainId: 0, event: undefined };

/** The event the handlers now run for (register.ts): kept as it comes, shaped for Ponder's profile only on a miss. */
export function setCurrentEvent(name: string, chainId: number, event: unknown): void {
  current.name = name;
  current.chainId = chainId;
  current.event = event;
}

/** The current event in the shape Ponder's profile reads. */
const currentEvent = (): PonderBatchEvent | undefined =>
  current.event === undefined
    ? undefined
    : {
        type: "log",
        checkpoint: "",
        eventCallback: { name: current.name },
        chain: { id: current.chainId },
        event: current.event as PonderBatchEvent["event"],
      };

export const keyPredictor = new KeyPredictor();

export const liveRows: LiveRows = new LiveRows(
  LIVE_TABLES,
  () => getConfig().writeBehindBytes,
  (table: PgTable, keyRow: Row): Map<string, Row> | undefined => {
    let byTable = writeBehindMissesByRead.get(current.name);
    if (byTable === undefined) writeBehindMissesByRead.set(current.name, (byTable = new Map()));
    const name = getTableName(table);
    byTable.set(name, (byTable.get(name) ?? 0) + 1);
    return keyPredictor.learn(currentEvent(), table, keyRow, liveRows);
  },
);

/** `context.db` on a live table inside a batch (./db.ts routes the calls). */
export const liveDb = liveDbOf(liveRows);
