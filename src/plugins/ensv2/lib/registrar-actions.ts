import * as schema from "ponder:schema";
import type { Address, Hex } from "viem";
import { namehash } from "../../../lib/names";
import { hasReferral, referralOf } from "../../shared/registrar-pricing";
import { emitter, type IndexedEvent, type IndexingContext } from "./context";
import { type DomainRow, labelInName } from "./domains";

/** The name the ENSv2 `.eth` registrar registers under. */
const MANAGED_NAME = "eth";

export interface Ensv2Action {
  type: "registration" | "renewal";
  /** The events that make the action, in log order: the first is its id. */
  eventIds: string[];
  duration: bigint;
  paymentToken: Address;
  referrer: Hex;
  base: bigint;
  premium: bigint;
}

/**
 * A registration or renewal by the ENSv2 registrar as /api/registrar-actions lists it (ensv2_registrar_action):
 * `registrant` is who sent the transaction, as for ENSv1 actions; `incrementalDuration` the time it bought.
 */
export async function recordRegistrarAction(
  context: IndexingContext,
  event: IndexedEvent<unknown>,
  domain: DomainRow,
  a: Ensv2Action,
): Promise<void> {
  const referral = referralOf(a.referrer);
  await context.db.insert(schema.ensv2RegistrarAction).values({
    id: a.eventIds[0]!,
    type: a.type,
    domainId: domain.id,
    node: domain.node ?? namehash(`${labelInName(domain)}.${MANAGED_NAME}`),
    parentNode: namehash(MANAGED_NAME),
    chainId: context.chain.id,
    registrar: emitter(event),
    incrementalDuration: a.duration,
    registrant: event.transaction.from.toLowerCase() as Hex,
    paymentToken: a.paymentToken.toLowerCase() as Address,
    baseCost: a.base,
    premium: a.premium,
    total: a.base + a.premium,
    ...referral,
    withReferral: hasReferral(referral.encodedReferrer),
    blockNumber: event.block.number,
    blockTimestamp: event.block.timestamp,
    logIndex: event.log.logIndex,
    transactionHash: event.transaction.hash.toLowerCase() as Hex,
    eventIds: a.eventIds,
  });
}
