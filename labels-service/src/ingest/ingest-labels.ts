import type { IngestCounts } from "../store/label-writer.js";
import { type RunIngestOptions, runIngest } from "./run-ingest.js";

export interface IngestLabelsOptions extends RunIngestOptions {
  labels: Iterable<string>;
  labelSetId: string;
}

/** Ingests labels held in memory as the next version of a label set (same rules as ingestFile). */
export async function ingestLabels(options: IngestLabelsOptions): Promise<IngestCounts> {
  return runIngest({ ...options, inputName: "labels" }, async (sink) => {
    sink.start({ labelSetId: options.labelSetId }, (n) => `label ${n}`);
    let n = 0;
    for (const label of options.labels) {
      sink.record(Buffer.from(label, "utf8"), null, ++n);
      if (n % 65536 === 0) await sink.chunkDone();
    }
  });
}
