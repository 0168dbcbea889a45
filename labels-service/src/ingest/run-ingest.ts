import { type IngestCounts, LabelWriter } from "../store/label-writer.js";
import { MalformedInputError } from "./malformed-input.js";
import { LabelhashMismatchError, ParallelHasher } from "./parallel-hasher.js";
import type { IngestSink } from "./sink.js";

export interface IngestProgress {
  /** Records read so far (added or skipped). */
  records: number;
  /** Input bytes consumed and the input size, when known (compressed bytes for gzip input). */
  bytesRead: number;
  totalBytes: number | null;
  elapsedSeconds: number;
  recordsPerSecond: number;
  /** Seconds left at the current rate, when the input size is known. */
  etaSeconds: number | null;
}

export interface RunIngestOptions {
  dbPath: string;
  onProgress?: (progress: IngestProgress) => void;
  /** Aborting stops the ingest at the next chunk; nothing of it is kept. */
  signal?: AbortSignal;
  /** How often onProgress is called at most. */
  progressIntervalMs?: number;
}

export class IngestAbortedError extends Error {
  constructor() {
    super("Ingest interrupted; the database is unchanged");
    this.name = "IngestAbortedError";
  }
}

/**
 * Runs a reader into one write transaction: commit on success, rollback on any error or abort.
 * `read` drives the sink; `bytesRead` tells how far into the input it is.
 */
export async function runIngest(
  options: RunIngestOptions & { inputName: string },
  read: (sink: IngestSink) => Promise<void>,
  input: { bytesRead: () => number; totalBytes: number | null } = { bytesRead: () => 0, totalBytes: null },
): Promise<IngestCounts> {
  const writer = new LabelWriter(options.dbPath);
  const startedAt = performance.now();
  const interval = options.progressIntervalMs ?? 250;
  let lastReport = startedAt;
  let started = false;
  let describeLocation = (location: number) => `record ${location}`;
  const hasher = new ParallelHasher((labelhash, label) => writer.add(labelhash, label));

  const report = (now: number) => {
    lastReport = now;
    const elapsedSeconds = (now - startedAt) / 1000;
    const bytesRead = input.bytesRead();
    const recordsPerSecond = elapsedSeconds > 0 ? writer.processed / elapsedSeconds : 0;
    const byteRate = elapsedSeconds > 0 ? bytesRead / elapsedSeconds : 0;
    const etaSeconds =
      input.totalBytes !== null && byteRate > 0 ? Math.max(0, (input.totalBytes - bytesRead) / byteRate) : null;
    options.onProgress?.({
      records: writer.processed,
      bytesRead,
      totalBytes: input.totalBytes,
      elapsedSeconds,
      recordsPerSecond,
      etaSeconds,
    });
  };

  const sink: IngestSink = {
    start(target, describe) {
      writer.begin(target);
      describeLocation = describe;
      started = true;
    },
    record(label, expectedLabelhash, location) {
      hasher.add(label, expectedLabelhash, location);
    },
    async chunkDone() {
      if (options.signal?.aborted) throw new IngestAbortedError();
      await hasher.drain();
      const now = performance.now();
      if (options.onProgress && now - lastReport >= interval) report(now);
    },
  };

  try {
    await read(sink);
    if (!started) throw new Error("the input produced no label set header");
    await hasher.finish();
    if (options.signal?.aborted) throw new IngestAbortedError();
    if (options.onProgress) report(performance.now());
    return writer.commit();
  } catch (error) {
    if (started) writer.rollback();
    if (error instanceof LabelhashMismatchError) {
      throw new MalformedInputError(options.inputName, describeLocation(error.location), error.message);
    }
    throw error;
  } finally {
    await hasher.close();
    writer.close();
  }
}
