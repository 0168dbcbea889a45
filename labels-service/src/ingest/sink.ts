import type { IngestTarget } from "../store/label-writer.js";

/** Where a format reader sends what it parses. */
export interface IngestSink {
  /**
   * Called once, before the first record, with what the input says about its label set, and how to name
   * a record's position (e.g. `line 12`) in an error message.
   */
  start(target: IngestTarget, describeLocation: (location: number) => string): void;
  /**
   * One record. A labelhash the input carries must equal keccak256(label), else the ingest fails at
   * `location`. The buffers are copied before the call returns.
   */
  record(label: Buffer, expectedLabelhash: Buffer | null, location: number): void;
  /** Called after each input chunk: backpressure, progress reporting and cancellation happen here. */
  chunkDone(): Promise<void>;
}

export type FormatReader = (
  chunks: AsyncIterable<Buffer>,
  file: string,
  sink: IngestSink,
  labelSetId: string | undefined,
) => Promise<void>;

export const lineLocation = (line: number) => `line ${line}`;
