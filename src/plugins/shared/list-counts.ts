import * as schema from "ponder:schema";
import { type CountedList, listCountId } from "../../lib/list-counts";
import { ROOT_NODE } from "../../lib/names";
import type { IndexingContext } from "./ens-handlers/context";

/*
 * The lengths of the Omnigraph's unfiltered domain lists (src/lib/list-counts.ts), moved by the handlers that create
 * a domain or change who owns it. Ponder's store reverts them with the rows on a reorg.
 */

type DomainRow = typeof schema.domain.$inferSelect;
type CountedDomain = Pick<DomainRow, "id" | "parentId" | "ownerId" | "registrantId" | "wrappedOwnerId">;
type DomainPatch = Partial<Omit<DomainRow, "id">>;

export async function bumpListCount(
  context: IndexingContext,
  list: CountedList,
  key: string,
  delta: number,
): Promise<void> {
  await context.db
    .insert(schema.domainListCount)
    .values({ id: listCountId(list, key), count: delta })
    .onConflictDoUpdate((row) => ({ count: row.count + delta }));
}

/**
 * The owner `Account.domains` lists an ENSv1 domain under (the API's EFFECTIVE_OWNER). Read it before a write: the
 * store's rows (`find`'s, `update`'s callback argument) are views that show later writes to the same row.
 */
export const effectiveOwner = (d: CountedDomain): string => d.wrappedOwnerId ?? d.registrantId ?? d.ownerId;

/**
 * After an ENSv1 domain row was written: `ownerBefore` is its effective owner before the write, null when the write
 * created it. A new row joins its parent's children; a new effective owner moves it between owners' lists. The root
 * is in no list (the API leaves it out).
 */
export async function settleDomainListCounts(
  context: IndexingContext,
  ownerBefore: string | null,
  after: CountedDomain,
): Promise<void> {
  if (after.id === ROOT_NODE) return;
  if (ownerBefore === null && after.parentId !== null) await bumpListCount(context, "v1-children", after.parentId, 1);
  const owner = effectiveOwner(after);
  if (ownerBefore === owner) return;
  if (ownerBefore !== null) await bumpListCount(context, "v1-owner", ownerBefore, -1);
  await bumpListCount(context, "v1-owner", owner, 1);
}

/** Updates an ENSv1 domain's owner columns (with whatever else `set` writes) and keeps the owners' counts. */
export async function updateDomainOwnership(
  context: IndexingContext,
  id: string,
  set: DomainPatch | ((row: DomainRow) => DomainPatch),
): Promise<DomainRow> {
  let ownerBefore = "";
  const after = await context.db.update(schema.domain, { id }).set((row) => {
    ownerBefore = effectiveOwner(row);
    return typeof set === "function" ? set(row) : set;
  });
  await settleDomainListCounts(context, ownerBefore, after);
  return after;
}

/**
 * After an ENSv2 domain's `owner` changed (null: burned or never minted, in no owner's list); `before` read before
 * the write, as above.
 */
export async function settleV2OwnerCount(
  context: IndexingContext,
  before: string | null,
  after: string | null,
): Promise<void> {
  if (before === after) return;
  if (before !== null) await bumpListCount(context, "v2-owner", before, -1);
  if (after !== null) await bumpListCount(context, "v2-owner", after, 1);
}
