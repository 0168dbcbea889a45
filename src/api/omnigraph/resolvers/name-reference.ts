import { GraphQLError } from "graphql";
import type { Address } from "viem";
import { v2IdFromInput } from "../../../lib/ensv2-ids";
import { type NameReferenceRow, nameReferenceCountQuery, nameReferencePageQuery } from "../../shared/name-references";
import type { OmnigraphContext } from "../context";
import { type Connection, decodeCursor, encodeCursor, type PageArgs, pageWindow } from "../cursor";
import { loadDomain } from "../domain-loader";
import { loadV2Domain } from "../ensv2/loaders";
import { v2Domain } from "../ensv2/model";
import { keyedConnection } from "../keyset";
import { MAX_FILTERED_COUNT } from "../limits";
import { type ResolverModel, v1Domain } from "../model";
import { primaryNameForCoinType } from "./resolution";

/*
 * Account.nameReferences: the names whose current resolver's address record (an EVM coin type) is the account, from
 * the indexer's name_reference table (src/api/shared/name-references.ts reads it), in id order. The indexer keeps no
 * count of an account's references (a name's references move with every resolver and record change), so `totalCount`
 * is counted, at most MAX_FILTERED_COUNT per account, as a filtered domain list's is (domain-counts.ts).
 */

function cappedCount(n: number): number {
  if (n > MAX_FILTERED_COUNT) {
    throw new GraphQLError(
      `totalCount of Account.nameReferences counts at most ${MAX_FILTERED_COUNT} names and this one has more: narrow it with where.coinType, or page through the list without totalCount`,
    );
  }
  return n;
}

export interface NameReferenceModel {
  account: Address;
  coinType: bigint;
  version: "ENSv1" | "ENSv2";
  domainId: string;
  resolver: ResolverModel;
}

const modelOf = (row: NameReferenceRow): NameReferenceModel => ({
  account: row.scope as Address,
  coinType: BigInt(row.coin_type),
  version: row.version,
  domainId: row.domain_id,
  resolver: { chainId: row.chain_id, address: row.resolver as Address },
});

/** One account's page; every account's page of one level of the answer (same arguments) is one statement. */
export function accountNameReferences(
  ctx: OmnigraphContext,
  account: Address,
  args: PageArgs & { where?: { coinType?: bigint | null } | null },
): Promise<Connection<NameReferenceModel>> {
  const page = { first: args.first, last: args.last, after: args.after, before: args.before };
  const filter = { coinType: args.where?.coinType ?? null };
  const { size, backward } = pageWindow(page);
  const bounds = {
    // An ENSv2 domain id in a cursor of an earlier build (hex storage id) is read as today's.
    after: page.after == null ? null : v2IdFromInput(decodeCursor(page.after, "text")[1]),
    before: page.before == null ? null : v2IdFromInput(decodeCursor(page.before, "text")[1]),
    size,
    backward,
  };
  const signature = JSON.stringify([filter.coinType?.toString() ?? null, page]);
  return keyedConnection<NameReferenceRow, NameReferenceModel>(
    ctx,
    {
      pages: `name-references:${signature}`,
      counts: `name-reference-counts:${filter.coinType ?? ""}`,
      pageQuery: (accounts) => nameReferencePageQuery(accounts, filter, bounds),
      countQuery: (accounts) => nameReferenceCountQuery(accounts, filter, MAX_FILTERED_COUNT),
      checkCount: cappedCount,
      cursorOf: (r) => encodeCursor(r.id, r.id),
      nodeOf: modelOf,
    },
    account.toLowerCase(),
    page,
  );
}

async function domainOf(ctx: OmnigraphContext, m: NameReferenceModel) {
  if (m.version === "ENSv2") {
    const row = await loadV2Domain(ctx, m.domainId);
    return row && { model: v2Domain(row), name: row.name };
  }
  const row = await loadDomain(ctx, m.domainId);
  return row && { model: v1Domain(row), name: row.name };
}

export const nameReferenceResolvers = {
  coinType: (m: NameReferenceModel) => m.coinType,
  domain: async (m: NameReferenceModel, _: unknown, ctx: OmnigraphContext) => (await domainOf(ctx, m))?.model ?? null,
  resolver: (m: NameReferenceModel) => m.resolver,
  // ENSIP-19 both ways: the account's primary name for this coin type is this very name.
  match: async (m: NameReferenceModel, _: unknown, ctx: OmnigraphContext) => {
    const [domain, primary] = await Promise.all([domainOf(ctx, m), primaryNameForCoinType(ctx, m.account, m.coinType)]);
    return primary !== null && domain?.name != null && primary === domain.name;
  },
};
