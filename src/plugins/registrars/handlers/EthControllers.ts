import { isIndexed, on } from "../../shared/register";
import { priced, referralOf } from "../../shared/registrar-pricing";
import { controllerFactsOf } from "../lib/on-controller-event";
import { subregistryOf } from "../lib/subregistries";

/*
 * The .eth controllers and the renewal-with-referrer contract on the ENS root chain. Each names the label, so its
 * event finds the base registrar's action for `<label>.eth` in the same transaction.
 */

const LEGACY = "registrars/ensroot/LegacyEthRegistrarController";
const WRAPPED = "registrars/ensroot/WrappedEthRegistrarController";
const UNWRAPPED = "registrars/ensroot/UnwrappedEthRegistrarController";
const REFERRER = "registrars/ensroot/RenewalWithReferrer";

export function register(): void {
  if (![LEGACY, WRAPPED, UNWRAPPED, REFERRER].some(isIndexed)) return;
  const merge = controllerFactsOf(subregistryOf("ensroot"));

  // Legacy controller: one `cost` for registrations and renewals, no premium.
  if (isIndexed(LEGACY)) {
    on(`${LEGACY}:NameRegistered`, (context, event) =>
      merge(context, event, `${LEGACY}:NameRegistered`, {
        labelhash: event.args.label,
        label: event.args.name,
        pricing: priced(event.args.cost),
      }),
    );
    on(`${LEGACY}:NameRenewed`, (context, event) =>
      merge(context, event, `${LEGACY}:NameRenewed`, {
        labelhash: event.args.label,
        label: event.args.name,
        pricing: priced(event.args.cost),
      }),
    );
  }

  // 2023 controller: registrations priced as baseCost + premium, renewals as one cost.
  if (isIndexed(WRAPPED)) {
    on(`${WRAPPED}:NameRegistered`, (context, event) =>
      merge(context, event, `${WRAPPED}:NameRegistered`, {
        labelhash: event.args.label,
        label: event.args.name,
        pricing: priced(event.args.baseCost, event.args.premium),
      }),
    );
    on(`${WRAPPED}:NameRenewed`, (context, event) =>
      merge(context, event, `${WRAPPED}:NameRenewed`, {
        labelhash: event.args.label,
        label: event.args.name,
        pricing: priced(event.args.cost),
      }),
    );
  }

  // 2025 controller: like the 2023 one, plus a referrer on both.
  if (isIndexed(UNWRAPPED)) {
    on(`${UNWRAPPED}:NameRegistered`, (context, event) =>
      merge(context, event, `${UNWRAPPED}:NameRegistered`, {
        labelhash: event.args.labelhash,
        label: event.args.label,
        pricing: priced(event.args.baseCost, event.args.premium),
        referral: referralOf(event.args.referrer),
      }),
    );
    on(`${UNWRAPPED}:NameRenewed`, (context, event) =>
      merge(context, event, `${UNWRAPPED}:NameRenewed`, {
        labelhash: event.args.labelhash,
        label: event.args.label,
        pricing: priced(event.args.cost),
        referral: referralOf(event.args.referrer),
      }),
    );
  }

  // Renews through a controller and then says who referred it: adds the referral to that renewal.
  if (isIndexed(REFERRER)) {
    on(`${REFERRER}:RenewalReferred`, (context, event) =>
      merge(context, event, `${REFERRER}:RenewalReferred`, {
        labelhash: event.args.labelHash,
        label: event.args.label,
        pricing: priced(event.args.cost),
        referral: referralOf(event.args.referrer),
      }),
    );
  }
}
