import { DEFAULT_SAMPLE_CHUNKS } from "../../snapshot/chunk-sample";
import { DEFAULT_CHUNK_ROWS } from "../../snapshot/digest";

/*
 * From a bench:snapshot run to a mainnet operator's wait, from the file's URL to following the head. Per plugin set P
 * of E_P mainnet events and an on-disk index of b bytes per event (two ends: LARGE_INDEX_BYTES_PER_EVENT, and what this
 * run measured, whichever is larger is the high end):
 *
 *   disk     = E_P × b                     file = disk × (this run's file bytes ÷ its index bytes on disk)
 *   download = file ÷ 100 MB/s             load = disk ÷ (this run's on-disk bytes ÷ its rows-load seconds)
 *   keys     = disk ÷ (on-disk bytes ÷ the seconds the keys, other indexes and triggers took)
 *   ponder   = disk ÷ (on-disk bytes ÷ the seconds ponder.schema.ts's indexes took)
 *   verify   = Σ over tables of min(rows × E_P ÷ E_run, 200 chunks × 2,000 rows) ÷ (rows per second of verify --full)
 *   total    = max(download, load) + keys + ponder + verify + catch-up
 *
 * max(download, load): the one-pass restore loads the rows as the bytes arrive, so the slower of the two sets the
 * pace; the keys and indexes are built once the last byte is in. `ponder` counts once: restore builds
 * ponder.schema.ts's indexes and `ponder start` keeps them (patch createDatabase-keep-indexes-at-recovery). Catch-up
 * is the rehearsal's (docs/benchmarks.md).
 *
 * A physical copy of a dedicated cluster (`create --cluster`, `restore --pgdata`) builds nothing: its data directory is
 * unpacked as it arrives, started once, and verified as above:
 *
 *   total    = max(download, unpack) + start + verify + catch-up
 *   unpack   = max(disk ÷ (on-disk bytes ÷ the unpack seconds),         (the copy also holds the catalogs and kept
 *                  disk × (data directory bytes ÷ on-disk bytes) ÷ the disk's sustained write rate)       sync rows)
 *
 * The run's unpack fits in the page cache; a mainnet one does not, so the disk's sustained write rate (measured by
 * the run: bytes written and synced) bounds it whatever the pipeline's own rate.
 */

/** Mainnet events per plugin set, from a peer's mainnet index (docs/benchmarks.md, "Projection to mainnet"). */
export const MAINNET_EVENTS = { "default plugins": 273e6, "subgraph plugin": 24e6 } as const;
/** The index's bytes on disk per event at 50,000 names (docs/benchmarks.md, "Disk"): the low end for a large index. */
const LARGE_INDEX_BYTES_PER_EVENT = 1_364;
const DOWNLOAD_BYTES_PER_SECOND = 100e6;
/** Restore's and create's defaults: the chunks a table's sample reads, and the rows in one. */
const SAMPLED_ROWS_PER_TABLE = DEFAULT_SAMPLE_CHUNKS * DEFAULT_CHUNK_ROWS;
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

/** A physical copy's run: its file, the seconds to unpack it and to start it (verify as the logical run's). */
export interface ClusterRun {
  fileBytes: number;
  /** The restored data directory's bytes. */
  directoryBytes: number;
  unpackSeconds: number;
  startSeconds: number;
  /** The disk's sustained write rate where the copy was unpacked, bytes a second. */
  diskWriteBytesPerSecond: number;
}

type PluginSet = keyof typeof MAINNET_EVENTS;

/**
 * Minutes from the URL to the head per plugin set and end (low, high), given the seconds a path spends on an index
 * of `disk` bytes besides the download; the shared terms (download, verify, catch-up) are the run's.
 */
function project(
  run: SnapshotRun,
  fileBytes: number,
  path: (disk: number) => { arriving: number; after: number },
): (set: PluginSet, end: 0 | 1) => number {
  const perEvent = run.diskBytes / run.events;
  const ends = [Math.min(perEvent, LARGE_INDEX_BYTES_PER_EVENT), Math.max(perEvent, LARGE_INDEX_BYTES_PER_EVENT)];
  const rowsPerSecond = run.tableRows.reduce((a, b) => a + b, 0) / run.fullVerifySeconds;
  return (set, end) => {
    const events = MAINNET_EVENTS[set];
    const disk = events * ends[end]!;
    const download = (disk * (fileBytes / run.diskBytes)) / DOWNLOAD_BYTES_PER_SECOND;
    const sampled = run.tableRows.reduce(
      (sum, rows) => sum + Math.min((rows * events) / run.events, SAMPLED_ROWS_PER_TABLE),
      0,
    );
    const verify = sampled / rowsPerSecond;
    const { arriving, after } = path(disk);
    return (Math.max(download, arriving) + after + verify) / 60 + CATCH_UP_MINUTES[set][end];
  };
}

function describe(label: string, minutes: (set: PluginSet, end: 0 | 1) => number): string {
  const range = (set: PluginSet) => `${Math.round(minutes(set, 0))}–${Math.round(minutes(set, 1))} min`;
  return `${label}: default plugins ${range("default plugins")}, subgraph plugin ${range("subgraph plugin")} (download at 100 MB/s included)`;
}

export function projectToMainnet(run: SnapshotRun): string {
  const minutes = project(run, run.fileBytes, (disk) => ({
    arriving: disk / (run.diskBytes / run.loadSeconds),
    after: disk / (run.diskBytes / run.postDataSeconds) + disk / (run.diskBytes / run.ponderIndexSeconds),
  }));
  return describe("snapshot projection", minutes);
}

/** The same for a physical copy of the run's index (`create --cluster`): self-hosted PostgreSQL only. */
export function projectClusterToMainnet(run: SnapshotRun, cluster: ClusterRun): string {
  const minutes = project(run, cluster.fileBytes, (disk) => ({
    arriving: Math.max(
      disk / (run.diskBytes / cluster.unpackSeconds),
      (disk * (cluster.directoryBytes / run.diskBytes)) / cluster.diskWriteBytesPerSecond,
    ),
    after: cluster.startSeconds,
  }));
  return describe("snapshot projection (physical copy, own server)", minutes);
}
