import { type Address, getAddress, type Hex, zeroAddress } from "viem";

/*
 * The pure rules of a logical registrar action (docs/api.md, "GET /api/registrar-actions"): referrer decoding and how a controller's
 * price and referral merge into the action the base registrar created. No store access, so they are unit-tested.
 */

export interface Pricing {
  baseCost: bigint;
  premium: bigint;
  total: bigint;
}

export interface Referral {
  encodedReferrer: Hex;
  decodedReferrer: Address;
}

const ZERO_BYTES32 = `0x${"0".repeat(64)}` as Hex;

/** A controller that charges `baseCost` and `premium` (legacy controllers and renewals: `cost` and premium 0). */
export function priced(baseCost: bigint, premium = 0n): Pricing {
  return { baseCost, premium, total: baseCost + premium };
}

/**
 * A `bytes32 referrer` holds an address when its first 12 bytes are zero (address = last 20 bytes); any other value
 * is not an address, and decodes to the zero address.
 */
export function decodeReferrer(encoded: Hex): Address {
  const hex = encoded.toLowerCase();
  if (!/^0x[0-9a-f]{64}$/.test(hex)) throw new Error(`a referrer is 32 bytes of hex, got ${encoded}`);
  if (hex.slice(2, 26) !== "0".repeat(24)) return zeroAddress;
  return getAddress(`0x${hex.slice(26)}`).toLowerCase() as Address;
}

export function referralOf(encoded: Hex): Referral {
  const encodedReferrer = encoded.toLowerCase() as Hex;
  return { encodedReferrer, decodedReferrer: decodeReferrer(encodedReferrer) };
}

/** Whether an action counts as referred (the withReferral filter): a referrer was given and it is not all zeros. */
export function hasReferral(encodedReferrer: Hex | null): boolean {
  return encodedReferrer !== null && encodedReferrer.toLowerCase() !== ZERO_BYTES32;
}

export interface ActionEnrichment {
  baseCost: bigint | null;
  premium: bigint | null;
  total: bigint | null;
  encodedReferrer: Hex | null;
  decodedReferrer: Address | null;
  eventIds: string[];
}

/**
 * Merges one controller event into an action. The first price wins (a renewal-with-referrer event repeats the price
 * its controller already published); a referral, when the event carries one, is set; the event id is appended, so
 * `eventIds` stays in log order.
 */
export function mergeControllerEvent(
  current: ActionEnrichment,
  event: { id: string; pricing: Pricing | null; referral: Referral | null },
): ActionEnrichment & { withReferral: boolean } {
  const keepPrice = current.baseCost !== null && current.premium !== null && current.total !== null;
  const price = keepPrice
    ? { baseCost: current.baseCost, premium: current.premium, total: current.total }
    : event.pricing
      ? { ...event.pricing }
      : { baseCost: null, premium: null, total: null };
  const referral = event.referral ?? {
    encodedReferrer: current.encodedReferrer,
    decodedReferrer: current.decodedReferrer,
  };
  return {
    ...price,
    ...referral,
    withReferral: hasReferral(referral.encodedReferrer),
    eventIds: current.eventIds.includes(event.id) ? current.eventIds : [...current.eventIds, event.id],
  };
}
