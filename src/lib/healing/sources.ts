import type { Hex } from "viem";

/** Where labels come from. A source answers the label it holds for each hash (unverified) or null. */
export interface LabelSource {
  /** Human-readable place, for error messages ("label service at http://…", "label database /path"). */
  readonly description: string;
  /** One lookup; throws TransientLabelSourceError to be retried, LabelHealingError to stop. */
  lookup(labelhash: Hex): Promise<string | null>;
  /** Many lookups at once (at most `maxBatch`); the map has an entry for every asked hash. */
  lookupMany?(labelhashes: Hex[]): Promise<Map<Hex, string | null>>;
  readonly maxBatch?: number;
  /** Prepares the source (opens files, loads code) before the first lookup needs it. */
  warmUp?(): Promise<void>;
}

export interface LabelSetPin {
  labelSetId: string;
  labelSetVersion: number;
}
