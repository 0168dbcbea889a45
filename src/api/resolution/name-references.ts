import type { Address } from "viem";
import { z } from "zod";
import { v2IdFromInput } from "../../lib/ensv2-ids";
import { rowsOf } from "../../lib/sql-rows";
import { type NameReferenceRow, nameReferenceNamesQuery, nameReferencePageQuery } from "../shared/name-references";
import { absentIfEmpty, positiveInt } from "../shared/params";
import type { SqlDb } from "../shared/read-db";

/*
 * GET /api/resolve/name-references/:address: the names whose current address record points at the address (the
 * index's name_reference table), a page at a time in a stable order; `cursor` continues after the last page.
 */

export const NAME_REFERENCES_DEFAULT_LIMIT = 25;
export const NAME_REFERENCES_MAX_LIMIT = 100;

/**
 * A reference's id: `<chainId>-<node>` (ENSv1) or an ENSv2 domain id (its storage id decimal; earlier builds wrote it
 * in hex, and such a cursor is read as today's), then `-<coinType>`.
 */
const CURSOR = /^\d{1,10}-0x[0-9a-f]{40,64}(-0x[0-9a-f]{64}|-\d{1,78})?-\d{1,78}$/;

export const nameReferencesQuery = z.object({
  coinType: absentIfEmpty.pipe(
    z
      .string()
      .regex(/^\d{1,78}$/, "coinType must be a non-negative integer")
      .refine((c) => !/^\d+$/.test(c) || BigInt(c) < 2n ** 256n, "coinType is a uint256 (below 2^256)")
      .transform((c) => BigInt(c))
      .optional(),
  ),
  limit: absentIfEmpty.pipe(positiveInt("limit", NAME_REFERENCES_MAX_LIMIT).default(NAME_REFERENCES_DEFAULT_LIMIT)),
  cursor: absentIfEmpty.pipe(
    z
      .string()
      .regex(CURSOR, "cursor must be the nextCursor of a previous page of this list")
      .transform(v2IdFromInput)
      .optional(),
  ),
});

export type NameReferencesQuery = z.infer<typeof nameReferencesQuery>;

export interface NameReference {
  /** The name, or null when the index has no name for the domain (an unknown label is `[labelhash]`). */
  name: string | null;
  domainId: string;
  version: "ENSv1" | "ENSv2";
  coinType: string;
  chainId: number;
  resolver: string;
}

/** One page: one index range for the references, one primary-key read for their names. */
export async function findNameReferences(
  db: SqlDb,
  address: Address,
  query: NameReferencesQuery,
): Promise<{ references: NameReference[]; nextCursor: string | null }> {
  const rows = rowsOf<NameReferenceRow>(
    await db.execute(
      nameReferencePageQuery(
        [address],
        { coinType: query.coinType ?? null },
        { after: query.cursor ?? null, size: query.limit, backward: false },
      ),
    ),
  );
  const page = rows.slice(0, query.limit);
  const names = new Map(
    page.length === 0
      ? []
      : rowsOf<{ id: string; name: string | null }>(await db.execute(nameReferenceNamesQuery(page))).map((r) => [
          r.id,
          r.name,
        ]),
  );
  return {
    references: page.map((r) => ({
      name: names.get(r.domain_id) ?? null,
      domainId: r.domain_id,
      version: r.version,
      coinType: r.coin_type,
      chainId: Number(r.chain_id),
      resolver: r.resolver,
    })),
    nextCursor: rows.length > query.limit ? page[page.length - 1]!.id : null,
  };
}
