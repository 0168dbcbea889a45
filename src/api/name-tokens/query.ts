import { ens_normalize } from "@adraffy/ens-normalize";
import { z } from "zod";
import { absentIfEmpty } from "../registrar-actions/query";

/*
 * /api/name-tokens asks for exactly one of `name` (ENSIP-15 normalized) or `domainId` (0x + 64 hex). An empty value
 * means "not given".
 */

/** An optional ENSIP-15 normalized name (an empty value means "not given"). */
export const normalizedName = absentIfEmpty.superRefine((name, ctx) => {
  if (name === undefined) return;
  let normalized: string | undefined;
  try {
    normalized = ens_normalize(name);
  } catch (error) {
    ctx.addIssue({ code: "custom", message: `name is not a valid ENS name: ${(error as Error).message}` });
    return;
  }
  if (normalized !== name) {
    ctx.addIssue({ code: "custom", message: `name must be ENSIP-15 normalized; its normalized form is "${normalized}"` });
  }
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
