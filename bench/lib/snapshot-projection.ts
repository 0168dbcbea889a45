/*
 * From a bench:snapshot run to a mainnet operator's wait, from the file's URL to following the head. Per plugin set P
 * of E_P mainnet events and an on-disk index of b bytes per event (two ends: LARGE_INDEX_BYTES_PER_EVENT, and what this
 * run measured, whichever is larger is the high end):
 *
 *   disk     = E_P × b                     file = disk × (this run's file bytes ÷ its index bytes on disk)
 *   download = file ÷ 100 MB/s             load = disk ÷ (this run's on-disk bytes ÷ its rows-load seconds)
 *   keys     = disk ÷ (on-disk bytes ÷ the seconds the keys, other indexes and triggers took)
 *   ponder   = disk ÷ (on-disk bytes ÷ the seconds ponder.schema.ts's indexes took)
 *   verify   = Σ over tables of min(rows × E_P ÷ E_run, 200 chunks × 10,000 rows) ÷ (rows per second of verify --full)
 *   total    = max(download, load) + keys + ponder + verify + catch-up
 *
 * max(download, load): the one-pass restore loads the rows as the bytes arrive, so the slower of the two sets the
 * pace; the keys and indexes are built once the last byte is in. `ponder` counts once: restore builds
 * ponder.schema.ts's indexes and `ponder start` keeps them (patch createDatabase-keep-indexes-at-recovery). Catch-up
 * is the rehearsal's (docs/benchmarks.md).
 */

/** Mainnet events per plugin set, from a peer's mainnet index (docs/benchmarks.md, "Projection to mainnet"). */
export const MAINNET_EVENTS = { "default plugins": 273e6, "subgraph plugin": 24e6 } as const;
/** The index's bytes on disk per event at 50,000 names (docs/benchmarks.md, "Disk"): the low end for a large index. */
const LARGE_INDEX_BYTES_PER_EVENT = 1_364;
const DOWNLOAD_BYTES_PER_SECOND = 100e6;
/** Restore's defaults: the chunks a table's sample reads, and the rows in one. */
const SAMPLED_ROWS_PER_TABLE = 200 * 10_000;
/** Ponder's catch-up from a snapshot ≤ 8 h old, minutes (docs/benchmarks.md, the rehearsal's tail and block reads). */
const CATCH_UP_MINUTES = { "default plugins": [2, 5], "subgraph plugin": [1, 3] } as const;

export interface SnapshotRun {
  events: number;
  diskBytes: number;
  fileBytes: number;
  loadSeconds: number;
  postDataSeconds: number;
  ponderIndexSeconds: number;
  /** Rows per table of the run's index (the manifest's). */
  tableRows: number[];
  fullVerifySeconds: number;
}

export function projectToMainnet(run: SnapshotRun): string {
  const perEvent = run.diskBytes / run.events;
  const ends = [Math.min(perEvent, LARGE_INDEX_BYTES_PER_EVENT), Math.max(perEvent, LARGE_INDEX_BYTES_PER_EVENT)];
  const rowsPerSecond = run.tableRows.reduce((a, b) => a + b, 0) / run.fullVerifySeconds;
  const minutes = (set: keyof typeof MAINNET_EVENTS, end: 0 | 1) => {
    const events = MAINNET_EVENTS[set];
    const disk = events * ends[end]!;
    const download = (disk * (run.fileBytes / run.diskBytes)) / DOWNLOAD_BYTES_PER_SECOND;
    const load = disk / (run.diskBytes / run.loadSeconds);
    const keys = disk / (run.diskBytes / run.postDataSeconds);
    const ponder = disk / (run.diskBytes / run.ponderIndexSeconds);
    const sampled = run.tableRows.reduce(
      (sum, rows) => sum + Math.min((rows * events) / run.events, SAMPLED_ROWS_PER_TABLE),
      0,
    );
    const verify = sampled / rowsPerSecond;
    return (Math.max(download, load) + keys + ponder + verify) / 60 + CATCH_UP_MINUTES[set][end];
  };
  const range = (set: keyof typeof MAINNET_EVENTS) =>
    `${Math.round(minutes(set, 0))}–${Math.round(minutes(set, 1))} min`;
  return `snapshot projection: default plugins ${range("default plugins")}, subgraph plugin ${range("subgraph plugin")} (download at 100 MB/s included)`;
}
