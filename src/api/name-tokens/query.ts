import { z } from "zod";
import { nameInputProblem } from "../../lib/name-input";
import { absentIfEmpty } from "../registrar-actions/query";

/*
 * /api/name-tokens asks for exactly one of `name` (ENSIP-15 normalized; unknown labels as `[labelhash]`) or `domainId`
 * (0x + 64 hex). An empty value means "not given".
 */

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

export const nameTokensQuery = z
  .object({
    name: normalizedName,
    domainId: domainIdParam,
  })
  .refine((q) => (q.name === undefined) !== (q.domainId === undefined), {
    message: "give exactly one of 'name' or 'domainId'",
    path: [],
  });

export type NameTokensQuery = z.infer<typeof nameTokensQuery>;
