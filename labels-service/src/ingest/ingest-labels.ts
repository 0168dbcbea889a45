import { keccak256Into } from "../keccak256.js";
import type { IngestCounts } from "../store/label-writer.js";
import { runIngest, type RunIngestOptions } from "./run-ingest.js";

export interface IngestLabelsOptions extends RunIngestOptions {
  labels: Iterable<string>;
  labelSetId: string;
}

/** Ingests labels held in memory as the next version of a label set (same rules as ingestFile). */
export async function ingestLabels(options: IngestLabelsOptions): Promise<IngestCounts> {
  return runIngest(options, async (sink) => {
    sink.start({ labelSetId: options.labelSetId });
    const hash = Buffer.alloc(32);
    let n = 0;
    for (const label of options.labels) {
      const bytes = Buffer.from(label, "utf8");
      keccak256Into(bytes, hash);
      sink.record(hash, bytes);
      if (++n % 65536 === 0) sink.chunkDone();
    }
  });
}
