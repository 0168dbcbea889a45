/*
 * The Omnigraph orders domain lists by their current registration's start and expiry (`REGISTRATION_TIMESTAMP`,
 * `REGISTRATION_EXPIRY`). Both domain tables hold the two keys on the row, so a parent's children come in that order
 * from an index instead of a sort of all of them (`eth` has millions of children on mainnet): the indexer writes them
 * with the registration they mirror, and the API reads nothing else to order by them.
 */

/**
 * The key of a domain without a registration (or whose registration never expires): int8's largest value, so it
 * sorts last ascending and first descending, the peer's place for a missing value, and keyset cursors compare it
 * like any other value.
 */
export const NO_REGISTRATION_KEY = 9223372036854775807n;

export interface RegistrationOrderKeys {
  registrationStartKey: bigint;
  registrationExpiryKey: bigint;
}

/** The keys of a domain whose current registration started at `start` (seconds) and expires at `expiry`. */
export const registrationOrderKeys = (start: bigint, expiry: bigint | null): RegistrationOrderKeys => ({
  registrationStartKey: start,
  registrationExpiryKey: expiry ?? NO_REGISTRATION_KEY,
});

/** The keys of a domain that has no registration (any more). */
export const NO_REGISTRATION_ORDER_KEYS: RegistrationOrderKeys = {
  registrationStartKey: NO_REGISTRATION_KEY,
  registrationExpiryKey: NO_REGISTRATION_KEY,
};
