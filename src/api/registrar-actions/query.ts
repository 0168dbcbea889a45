import { z } from "zod";

/*
 * Query rules of /api/registrar-actions (docs/api.md, "GET /api/registrar-actions"): `limit` 1–100 (default 25), 1-based `page`, filters
 * `withReferral`, `decodedReferrer` and the inclusive `beginTimestamp`/`endTimestamp`. An empty value means "not
 * given". Kept free of the database so the rules and the page arithmetic are unit-tested.
 */

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;

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

export interface PageContext {
  page: number;
  limit: number;
  totalRecords: number;
  totalPages: number;
  hasNext: boolean;
  hasPrev: boolean;
}

/** Pages of `limit` records, 1-based; an empty result still has one (empty) page. */
export function pageContext(page: number, limit: number, totalRecords: number): PageContext {
  const totalPages = Math.max(1, Math.ceil(totalRecords / limit));
  return { page, limit, totalRecords, totalPages, hasNext: page < totalPages, hasPrev: page > 1 };
}
