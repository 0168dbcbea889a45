import type { IngestTarget } from "../store/label-writer.js";

/** Where a format reader sends what it parses. */
export interface IngestSink {
  /** Called once, before the first record, with what the input says about its label set. */
  start(target: IngestTarget): void;
  /** One record; the labelhash has already been checked against the label. Buffers may be reused after. */
  record(labelhash: Buffer, label: Buffer): void;
  /** Called after each input chunk: progress reporting and cancellation happen here. */
  chunkDone(): void;
}

export interface FormatReader {
  (chunks: AsyncIterable<Buffer>, file: string, sink: IngestSink, labelSetId: string | undefined): Promise<void>;
}
