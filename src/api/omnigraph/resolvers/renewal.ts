import type { EventModel } from "../events";

/*
 * A renewal of either version, in one shape: ENSv1's from the registrars plugin's `registrar_action`
 * (registration-actions.ts), ENSv2's from `ensv2_renewal` (ensv2-registration.ts).
 */

export interface RenewalModel {
  id: string;
  duration: bigint;
  /** Null where no controller published a price (ENSv1: a renewal made on the base registrar directly). */
  base: bigint | null;
  premium: bigint | null;
  referrer: string | null;
  event: EventModel;
}

export const renewalResolvers = {
  id: (n: RenewalModel) => n.id,
  duration: (n: RenewalModel) => n.duration,
  base: (n: RenewalModel) => n.base,
  premium: (n: RenewalModel) => n.premium,
  referrer: (n: RenewalModel) => n.referrer,
  event: (n: RenewalModel) => n.event,
};
