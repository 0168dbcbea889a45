import { z } from "zod";
import { MESSAGES } from "../errors.js";
import { labelSetIdSchema } from "../label-set.js";

/** Largest batch POST /v1/heal accepts. */
export const MAX_BATCH = 1000;
/** A POST /v1/heal body's size limit: 1000 labelhashes as JSON take ~68 KB, so any honest batch fits. */
export const MAX_BATCH_BODY_BYTES = 256 * 1024;

export const pinQuerySchema = z
  .object({
    label_set_id: labelSetIdSchema.optional(),
    label_set_version: z
      .string()
      .regex(/^\d{1,15}$/, "label_set_version must be a non-negative integer")
      .transform(Number)
      .optional(),
  })
  .refine((q) => q.label_set_version === undefined || q.label_set_id !== undefined, {
    message: MESSAGES.versionWithoutId,
  })
  .transform((q) => ({ labelSetId: q.label_set_id, labelSetVersion: q.label_set_version }));

export const batchBodySchema = z
  .array(z.string(), { invalid_type_error: "The request body must be a JSON array of labelhash strings" })
  .max(MAX_BATCH, `At most ${MAX_BATCH} labelhashes per request`);
