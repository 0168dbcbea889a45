import * as schema from "ponder:schema";
import type { Address } from "viem";
import { accountId, eventId } from "../../../lib/ids";
import { ZERO_ADDRESS } from "../../../lib/names";
import type { HandlerSettings, IndexedEvent, IndexingContext } from "./context";

export type DomainRow = typeof schema.domain.$inferSelect;

/** Accounts have no fields but their id; every relation to one must find it. */
export async function upsertAccount(context: IndexingContext, address: Address): Promise<string> {
  const id = accountId(address);
  await context.db.insert(schema.account).values({ id }).onConflictDoNothing();
  return id;
}

/** The columns every event entity shares: id, blockNumber, transactionID. */
export function eventFields(
  settings: HandlerSettings,
  context: IndexingContext,
  event: IndexedEvent<unknown>,
  subIndex?: number,
) {
  return {
    id: eventId(settings, context.chain.id, event.block.number, event.log.logIndex, subIndex),
    blockNumber: Number(event.block.number),
    transactionID: event.transaction.hash,
  };
}

/** The subgraph's "empty" domain: no owner, no resolver, no subdomains — as good as deleted. */
export function isEmptyDomain(d: Pick<DomainRow, "ownerId" | "resolverId" | "subdomainCount">): boolean {
  return d.ownerId === ZERO_ADDRESS && d.resolverId === null && d.subdomainCount === 0;
}

/**
 * Keeps `subdomainCount` up the tree after `after` (the domain's new row) was written.
 *
 * Compatible mode reproduces the subgraph's `saveDomain`/`recurseDomainDelete`: whenever a saved domain is empty,
 * its parent loses one subdomain, and so on up while parents become empty. (That drifts when an already empty
 * domain is saved again or an empty domain gets a new owner; the subgraph has the same drift.)
 *
 * Default mode counts exactly the non-empty children: only a change of emptiness (`before` → `after`) moves the
 * parent's count, and the change propagates while it changes the parent's own emptiness. `before` is null for a
 * domain that did not exist (not counted yet).
 */
export async function settleSubdomainCounts(
  settings: HandlerSettings,
  context: IndexingContext,
  before: DomainRow | null,
  after: DomainRow,
): Promise<void> {
  if (settings.isSubgraphCompatible) {
    let current = after;
    while (isEmptyDomain(current) && current.parentId !== null) {
      const parent = await context.db
        .update(schema.domain, { id: current.parentId })
        .set((row) => ({ subdomainCount: row.subdomainCount - 1 }));
      current = parent;
    }
    return;
  }
  let wasCounted = before !== null && !isEmptyDomain(before);
  let isCounted = !isEmptyDomain(after);
  let parentId = after.parentId;
  while (wasCounted !== isCounted && parentId !== null) {
    const delta = isCounted ? 1 : -1;
    const parent = await context.db
      .update(schema.domain, { id: parentId })
      .set((row) => ({ subdomainCount: row.subdomainCount + delta }));
    wasCounted = !isEmptyDomain({ ...parent, subdomainCount: parent.subdomainCount - delta });
    isCounted = !isEmptyDomain(parent);
    parentId = parent.parentId;
  }
}
