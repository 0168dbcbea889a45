import { z } from "zod";
import { nameInputProblem } from "../../lib/name-input";

/*
 * Query parameters that several route families read (docs/api.md). An empty value means "not given", so a form that
 * submits `?beginTimestamp=` is treated like one that leaves it out.
 */

export const absentIfEmpty = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v === "" ? undefined : v));

export const positiveInt = (what: string, max?: number) => {
  let n = z.coerce
    .number({ message: `${what} must be a number` })
    .int(`${what} must be a whole number`)
    .positive(`${what} must be at least 1`);
  if (max !== undefined) n = n.max(max, `${what} must be at most ${max}`);
  return n;
};

export const timestamp = (what: string) =>
  absentIfEmpty.pipe(
    z.coerce
      .number({ message: `${what} must be a Unix timestamp in seconds` })
      .int(`${what} must be a whole number of seconds`)
      .nonnegative(`${what} must not be negative`)
      .max(Number.MAX_SAFE_INTEGER, `${what} is too large`)
      .optional(),
  );

/** An optional ENSIP-15 normalized name, unknown labels as `[labelhash]` (an empty value means "not given"). */
export const normalizedName = absentIfEmpty.superRefine((name, ctx) => {
  const problem = name === undefined ? undefined : nameInputProblem(name);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

/** An optional 0x + 64 hex node, lowercased. */
export const domainIdParam = absentIfEmpty.pipe(
  z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, "domainId must be a 0x-prefixed 32-byte node (namehash)")
    .transform((v) => v.toLowerCase() as `0x${string}`)
    .optional(),
);
