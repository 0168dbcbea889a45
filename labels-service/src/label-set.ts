import { z } from "zod";

/** A label set id is 1–50 characters of a-z and "-" (the peer's rule, so published sets keep their ids). */
export const labelSetIdSchema = z
  .string()
  .regex(/^[a-z-]{1,50}$/, "label set id must be 1-50 characters, each a lowercase letter (a-z) or a hyphen (-)");

/** A label set version is a non-negative integer; the first ingest of a set is version 0. */
export const labelSetVersionSchema = z.number().int().nonnegative();

export interface LabelSetPin {
  labelSetId?: string;
  labelSetVersion?: number;
}
