import { z } from "zod";
import { absentIfEmpty, domainIdParam, normalizedName } from "../shared/params";

/*
 * /api/name-tokens asks for exactly one of `name` (ENSIP-15 normalized; unknown labels as `[labelhash]`) or `domainId`
 * (0x + 64 hex). An empty value means "not given".
 */

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
