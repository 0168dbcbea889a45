import * as schema from "ponder:schema";
import type { Address, Hex } from "viem";
import { zeroAddress } from "viem";
import { hex32 } from "../../../lib/ensv2-ids";
import { registrationOrderKeys } from "../../../lib/registration-order";
import { emitter, ensv2Anchors, type IndexedEvent, type IndexingContext } from "./context";
import { type DomainRow, findDomain } from "./domains";
import { logColumns } from "./events";
import { recordRegistrarAction } from "./registrar-actions";

const lower = (a: Address): Address => a.toLowerCase() as Address;
const nullIfZero = (a: Address): Address | null => (a === zeroAddress ? null : lower(a));

/** A LabelRegistered (owner) or LabelReserved (no owner): one row of ensv2_registration, the domain's latest. */
export async function recordRegistration(
  context: IndexingContext,
  event: IndexedEvent<{ tokenId: bigint; expiry: bigint; sender: Address; owner?: Address }>,
  domain: DomainRow,
): Promise<void> {
  const row = {
    ...logColumns(context, event),
    domainId: domain.id,
    kind: event.args.owner === undefined ? ("reservation" as const) : ("registration" as const),
    tokenId: hex32(event.args.tokenId),
    owner: event.args.owner === undefined ? null : nullIfZero(event.args.owner),
    expiry: event.args.expiry,
    sender: lower(event.args.sender),
  };
  await context.db.insert(schema.ensv2Registration).values(row);
  await context.db
    .update(schema.ensv2Domain, { id: domain.id })
    .set({ latestRegistrationId: row.id, ...registrationOrderKeys(event.block.timestamp, event.args.expiry) });
}

/** The .eth domain a registrar event names: the registrar registers in the ETH registry. */
async function ethDomain(context: IndexingContext, event: IndexedEvent<{ tokenId: bigint }>): Promise<DomainRow> {
  const domain = await findDomain(context, ensv2Anchors().ethRegistry, event.args.tokenId);
  if (!domain) {
    throw new Error(
      `ensv2: ${emitter(event)} in tx ${event.transaction.hash} names token ${event.args.tokenId}, which the ETH registry never registered`,
    );
  }
  return domain;
}

export interface NameRegisteredPrice {
  tokenId: bigint;
  duration: bigint;
  paymentToken: Address;
  referrer: Hex;
  base: bigint;
  premium: bigint;
}

/**
 * The registrar's NameRegistered prices the registration its registry call recorded earlier in the same transaction;
 * returns the registered domain's id.
 */
export async function priceRegistration(
  context: IndexingContext,
  event: IndexedEvent<NameRegisteredPrice>,
): Promise<string> {
  const domain = await ethDomain(context, event);
  const registration = domain.latestRegistrationId
    ? await context.db.find(schema.ensv2Registration, { id: domain.latestRegistrationId })
    : null;
  if (!registration || registration.transactionHash !== event.transaction.hash.toLowerCase()) {
    throw new Error(
      `ensv2: NameRegistered in tx ${event.transaction.hash} has no LabelRegistered of ${domain.id} before it in that transaction`,
    );
  }
  const { duration, paymentToken, referrer, base, premium } = event.args;
  await context.db.update(schema.ensv2Registration, { id: registration.id }).set({
    registrar: emitter(event),
    duration,
    paymentToken: lower(paymentToken),
    referrer: referrer.toLowerCase() as Hex,
    base,
    premium,
  });
  const eventIds = [registration.id, logColumns(context, event).id];
  await recordRegistrarAction(context, event, domain, {
    type: "registration",
    eventIds,
    duration,
    paymentToken,
    referrer,
    base,
    premium,
  });
  return domain.id;
}

export interface NameRenewedArgs {
  tokenId: bigint;
  duration: bigint;
  newExpiry: bigint;
  paymentToken: Address;
  referrer: Hex;
  base: bigint;
}

export async function recordRenewal(context: IndexingContext, event: IndexedEvent<NameRenewedArgs>): Promise<string> {
  const domain = await ethDomain(context, event);
  const { tokenId, duration, newExpiry, paymentToken, referrer, base } = event.args;
  const log = logColumns(context, event);
  await recordRegistrarAction(context, event, domain, {
    type: "renewal",
    eventIds: [log.id],
    duration,
    paymentToken,
    referrer,
    base,
    premium: 0n,
  });
  await context.db.insert(schema.ensv2Renewal).values({
    ...log,
    domainId: domain.id,
    tokenId: hex32(tokenId),
    registrar: emitter(event),
    duration,
    newExpiry,
    paymentToken: lower(paymentToken),
    referrer: referrer.toLowerCase() as Hex,
    base,
  });
  return domain.id;
}
