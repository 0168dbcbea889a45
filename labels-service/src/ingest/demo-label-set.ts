import { existsSync, readFileSync } from "node:fs";
import wordListPath from "word-list";
import { LabelStore } from "../store/label-store.js";
import { ingestLabels } from "./ingest-labels.js";

export const DEMO_LABEL_SET_ID = "demo";

export interface DemoLabelSetOptions {
  dbPath: string;
  /** Labels to add beyond the word list (e.g. names the demo chain registers). */
  extraLabels?: readonly string[];
  /** Labels to leave out, so a demo can show an unhealable name. */
  excludeLabels?: readonly string[];
  labelSetId?: string;
}

export type DemoLabelSetResult =
  | { created: true; labelSetId: string; labelSetVersion: number; added: number }
  | { created: false; labelSetId: string; reason: string };

/**
 * Creates a small label set from the `word-list` npm package (~275k English words) plus extra labels,
 * so `npm start` has something to heal without downloading a published label set.
 * Does nothing when the database already serves a label set with that id.
 */
export async function ingestDemoLabelSet(options: DemoLabelSetOptions): Promise<DemoLabelSetResult> {
  const labelSetId = options.labelSetId ?? DEMO_LABEL_SET_ID;
  if (existsSync(options.dbPath)) {
    const store = new LabelStore(options.dbPath);
    try {
      const readiness = store.readiness();
      if (readiness.ready && readiness.labelSetId === labelSetId) {
        return { created: false, labelSetId, reason: `the database already holds label set "${labelSetId}"` };
      }
    } finally {
      store.close();
    }
  }
  const excluded = new Set(options.excludeLabels ?? []);
  const words = readFileSync(wordListPath, "utf8")
    .split("\n")
    .filter((w) => w.length > 0);
  const labels = [...words, ...(options.extraLabels ?? [])].filter((label) => !excluded.has(label));
  const result = await ingestLabels({ dbPath: options.dbPath, labels, labelSetId });
  return { created: true, labelSetId, labelSetVersion: result.labelSetVersion, added: result.added };
}
