import type { Hex } from "viem";
import { onControllerEvent } from "../lib/on-controller-event";
import { priced, referralOf } from "../lib/pricing";
import { isIndexed } from "../lib/register";
import { subregistryOf } from "../lib/subregistries";

/*
 * The .eth controllers and the renewal-with-referrer contract on the ENS root chain. Each names the label, so its
 * event finds the base registrar's action for `<label>.eth` in the same transaction.
 */

export function register(): void {
  const LEGACY = "registrars/ensroot/LegacyEthRegistrarController";
  const WRAPPED = "registrars/ensroot/WrappedEthRegistrarController";
  const UNWRAPPED = "registrars/ensroot/UnwrappedEthRegistrarController";
  const REFERRER = "registrars/ensroot/RenewalWithReferrer";

  if ([LEGACY, WRAPPED, UNWRAPPED, REFERRER].some(isIndexed)) {
    const sub = subregistryOf("ensroot");

    // Legacy controller: one `cost` for registrations and renewals, no premium.
    if (isIndexed(LEGACY)) {
      type Args = { name: string; label: Hex; cost: bigint };
      for (const ev of ["NameRegistered", "NameRenewed"]) {
        onControllerEvent<Args>(sub, LEGACY, ev, (a) => ({ labelhash: a.label, label: a.name, pricing: priced(a.cost) }));
      }
    }

    // 2023 controller: registrations priced as baseCost + premium, renewals as one cost.
    if (isIndexed(WRAPPED)) {
      type Registered = { name: string; label: Hex; baseCost: bigint; premium: bigint };
      onControllerEvent<Registered>(sub, WRAPPED, "NameRegistered", (a) => ({
        labelhash: a.label,
        label: a.name,
        pricing: priced(a.baseCost, a.premium),
      }));
      type Renewed = { name: string; label: Hex; cost: bigint };
      onControllerEvent<Renewed>(sub, WRAPPED, "NameRenewed", (a) => ({
        labelhash: a.label,
        label: a.name,
        pricing: priced(a.cost),
      }));
    }

    // 2025 controller: like the 2023 one, plus a referrer on both.
    if (isIndexed(UNWRAPPED)) {
      type Registered = { label: string; labelhash: Hex; baseCost: bigint; premium: bigint; referrer: Hex };
      onControllerEvent<Registered>(sub, UNWRAPPED, "NameRegistered", (a) => ({
        labelhash: a.labelhash,
        label: a.label,
        pricing: priced(a.baseCost, a.premium),
        referral: referralOf(a.referrer),
      }));
      type Renewed = { label: string; labelhash: Hex; cost: bigint; referrer: Hex };
      onControllerEvent<Renewed>(sub, UNWRAPPED, "NameRenewed", (a) => ({
        labelhash: a.labelhash,
        label: a.label,
        pricing: priced(a.cost),
        referral: referralOf(a.referrer),
      }));
    }

    // Renews through a controller and then says who referred it: adds the referral to that renewal.
    if (isIndexed(REFERRER)) {
      type Referred = { label: string; labelHash: Hex; cost: bigint; referrer: Hex };
      onControllerEvent<Referred>(sub, REFERRER, "RenewalReferred", (a) => ({
        labelhash: a.labelHash,
        label: a.label,
        pricing: priced(a.cost),
        referral: referralOf(a.referrer),
      }));
    }
  }
}
