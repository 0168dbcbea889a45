import { z } from "zod";
import { DEFAULT_LIMIT, MAX_LIMIT } from "../shared/paging";
import { absentIfEmpty, domainIdParam, normalizedName, positiveInt, timestamp } from "../shared/params";

/*
 * Query rules of /api/name-sales: the registrar actions' paging (`limit` 1–100, default 25; 1-based `page`) and
 * inclusive `beginTimestamp`/`endTimestamp`, plus at most one of `name` (ENSIP-15 normalized) or `domainId`, and
 * `buyer`/`seller` addresses. An empty value means "not given".
 */

const address = (what: string) =>
  absentIfEmpty.pipe(
    z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, `${what} must be a 0x-prefixed 20-byte address`)
      .transform((v) => v.toLowerCase() as `0x${string}`)
      .optional(),
  );

export const nameSalesQuery = z
  .object({
    limit: absentIfEmpty.pipe(positiveInt("limit", MAX_LIMIT).default(DEFAULT_LIMIT)),
    page: absentIfEmpty.pipe(positiveInt("page", 1_000_000_000).default(1)),
    name: normalizedName,
    domainId: domainIdParam,
    buyer: address("buyer"),
    seller: address("seller"),
    beginTimestamp: timestamp("beginTimestamp"),
    endTimestamp: timestamp("endTimestamp"),
  })
  .refine((q) => q.name === undefined || q.domainId === undefined, {
    message: "give at most one of 'name' or 'domainId'",
    path: ["domainId"],
  })
  .refine((q) => q.beginTimestamp === undefined || q.endTimestamp === undefined || q.endTimestamp >= q.beginTimestamp, {
    message: "endTimestamp must be greater than or equal to beginTimestamp",
    path: ["endTimestamp"],
  });

export type NameSalesQuery = z.infer<typeof nameSalesQuery>;
