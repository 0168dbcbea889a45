import * as schema from "ponder:schema";
import type { Address } from "viem";
import { versionOf } from "../../../lib/entity-history/version";
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
    logVersion: versionOf(
      { timestamp: event.block.timestamp, chainId: context.chain.id, blockNumber: event.block.number },
      event.log.logIndex,
      0,
    ),
  };
}

/** The subgraph's "empty" domain: no owner, no resolver, no subdomains — as good as deleted. */
export function isEmptyDomain(d: Pick<DomainRow, "ownerId" | "resolverId" | "subdomainCount">): boolean {
  return d.ownerId === ZERO_ADDRESS && d.resolverId === null && d.subdomainCount === 0;
}

/**
 * What the subdomain count rule reads of a domain, copied out of its row at one moment. A row the store hands out is
 * no value: on Ponder 0.16 `find`'s row, `update().set`'s callback argument and the rows `insert`/`update` return read
 * through to the cached row, which the next write to it changes in place (0.17 hands out copies). A count taken from
 * such a row after the write sees no change of emptiness; a state taken before the write stays "before" on both.
 */
export interface DomainCountState {
  readonly parentId: string | null;
  readonly ownerId: string;
  readonly resolverId: string | null;
  readonly subdomainCount: number;
  readonly isEmpty: boolean;
}

export function domainCountState(row: DomainRow): DomainCountState {
  const { parentId, ownerId, resolverId, subdomainCount } = row;
  return Object.freeze({ parentId, ownerId, resolverId, subdomainCount, isEmpty: isEmptyDomain(row) });
}

/**
 * Keeps `subdomainCount` up the tree after a domain was written: `before` its state read before the write (null for
 * a domain the write created), `after` its state just after.
 *
 * Compatible mode reproduces the subgraph's `saveDomain`/`recurseDomainDelete`: whenever a saved domain is empty,
 * its parent loses one subdomain, and so on up while parents become empty. (That drifts when an already empty
 * domain is saved again or an empty domain gets a new owner or resolver; the subgraph has the same drift.)
 *
 * Default mode counts exactly the non-empty children (docs/api.md, "/subgraph: Domain.subdomainCount"): only a change
 * of emptiness (`before` → `after`) moves the parent's count, and the change propagates while it changes the
 * parent's own emptiness. A domain that did not exist was not counted.
 */
export async function settleSubdomainCounts(
  settings: HandlerSettings,
  context: IndexingContext,
  before: DomainCountState | null,
  after: DomainCountState,
): Promise<void> {
  if (settings.isSubgraphCompatible) {
    let current = after;
    while (current.isEmpty && current.parentId !== null) {
      const parent = await context.db
        .update(schema.domain, { id: current.parentId })
        .set((row) => ({ subdomainCount: row.subdomainCount - 1 }));
      current = domainCountState(parent);
    }
    return;
  }
  let wasCounted = before !== null && !before.isEmpty;
  let isCounted = !after.isEmpty;
  let parentId = after.parentId;
  while (wasCounted !== isCounted && parentId !== null) {
    const delta = isCounted ? 1 : -1;
    const parent = domainCountState(
      await context.db
        .update(schema.domain, { id: parentId })
        .set((row) => ({ subdomainCount: row.subdomainCount + delta })),
    );
    // Only its count moved, by delta.
    wasCounted = !isEmptyDomain({ ...parent, subdomainCount: parent.subdomainCount - delta });
    isCounted = !parent.isEmpty;
    parentId = parent.parentId;
  }
}
