import { z } from "zod";
import { DEFAULT_LIMIT, MAX_LIMIT } from "../shared/paging";
import { absentIfEmpty, positiveInt, timestamp } from "../shared/params";

/*
 * Query rules of /api/registrar-actions (docs/api.md, "GET /api/registrar-actions"): `limit` 1–MAX_LIMIT (default DEFAULT_LIMIT, shared/paging.ts), 1-based `page`, filters
 * `withReferral`, `decodedReferrer` and the inclusive `beginTimestamp`/`endTimestamp`. An empty value means "not
 * given". Kept free of the database so the rules and the page arithmetic are unit-tested.
 */

export const registrarActionsQuery = z
  .object({
    limit: absentIfEmpty.pipe(positiveInt("limit", MAX_LIMIT).default(DEFAULT_LIMIT)),
    page: absentIfEmpty.pipe(positiveInt("page", 1_000_000_000).default(1)),
    withReferral: absentIfEmpty.pipe(
      z
        .enum(["true", "false"], { message: "withReferral must be true or false" })
        .default("false")
        .transform((v) => v === "true"),
    ),
    decodedReferrer: absentIfEmpty.pipe(
      z
        .string()
        .regex(/^0x[0-9a-fA-F]{40}$/, "decodedReferrer must be a 0x-prefixed 20-byte address")
        .transform((v) => v.toLowerCase() as `0x${string}`)
        .optional(),
    ),
    beginTimestamp: timestamp("beginTimestamp"),
    endTimestamp: timestamp("endTimestamp"),
  })
  .refine((q) => q.beginTimestamp === undefined || q.endTimestamp === undefined || q.endTimestamp >= q.beginTimestamp, {
    message: "endTimestamp must be greater than or equal to beginTimestamp",
    path: ["endTimestamp"],
  });

export type RegistrarActionsQuery = z.infer<typeof registrarActionsQuery>;

export const parentNodeParam = z.object({
  parentNode: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, "parentNode must be a 0x-prefixed 32-byte node (namehash)")
    .transform((v) => v.toLowerCase() as `0x${string}`),
});
