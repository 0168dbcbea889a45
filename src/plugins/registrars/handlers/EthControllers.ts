import type { Hex } from "viem";
import { controllerEvent } from "../lib/actions";
import { priced, referralOf } from "../lib/pricing";
import { isIndexed, on } from "../lib/register";
import { subregistryOf } from "../lib/subregistries";

/*
 * The .eth controllers and the renewal-with-referrer contract on the ENS root chain. Each names the label, so its
 * event finds the base registrar's action for `<label>.eth` in the same transaction.
 */

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
      on<Args>(`${LEGACY}:${ev}`, (context, event) =>
        controllerEvent(context, sub, event, {
          source: `LegacyEthRegistrarController:${ev}`,
          labelhash: event.args.label,
          label: event.args.name,
          pricing: priced(event.args.cost),
          referral: null,
        }),
      );
    }
  }

  // 2023 controller: registrations priced as baseCost + premium, renewals as one cost.
  if (isIndexed(WRAPPED)) {
    type Registered = { name: string; label: Hex; baseCost: bigint; premium: bigint };
    on<Registered>(`${WRAPPED}:NameRegistered`, (context, event) =>
      controllerEvent(context, sub, event, {
        source: "WrappedEthRegistrarController:NameRegistered",
        labelhash: event.args.label,
        label: event.args.name,
        pricing: priced(event.args.baseCost, event.args.premium),
        referral: null,
      }),
    );
    type Renewed = { name: string; label: Hex; cost: bigint };
    on<Renewed>(`${WRAPPED}:NameRenewed`, (context, event) =>
      controllerEvent(context, sub, event, {
        source: "WrappedEthRegistrarController:NameRenewed",
        labelhash: event.args.label,
        label: event.args.name,
        pricing: priced(event.args.cost),
        referral: null,
      }),
    );
  }

  // 2025 controller: like the 2023 one, plus a referrer on both.
  if (isIndexed(UNWRAPPED)) {
    type Registered = { label: string; labelhash: Hex; baseCost: bigint; premium: bigint; referrer: Hex };
    on<Registered>(`${UNWRAPPED}:NameRegistered`, (context, event) =>
      controllerEvent(context, sub, event, {
        source: "UnwrappedEthRegistrarController:NameRegistered",
        labelhash: event.args.labelhash,
        label: event.args.label,
        pricing: priced(event.args.baseCost, event.args.premium),
        referral: referralOf(event.args.referrer),
      }),
    );
    type Renewed = { label: string; labelhash: Hex; cost: bigint; referrer: Hex };
    on<Renewed>(`${UNWRAPPED}:NameRenewed`, (context, event) =>
      controllerEvent(context, sub, event, {
        source: "UnwrappedEthRegistrarController:NameRenewed",
        labelhash: event.args.labelhash,
        label: event.args.label,
        pricing: priced(event.args.cost),
        referral: referralOf(event.args.referrer),
      }),
    );
  }

  // Renews through a controller and then says who referred it: adds the referral to that renewal.
  if (isIndexed(REFERRER)) {
    type Referred = { label: string; labelHash: Hex; cost: bigint; referrer: Hex };
    on<Referred>(`${REFERRER}:RenewalReferred`, (context, event) =>
      controllerEvent(context, sub, event, {
        source: "RenewalWithReferrer:RenewalReferred",
        labelhash: event.args.labelHash,
        label: event.args.label,
        pricing: priced(event.args.cost),
        referral: referralOf(event.args.referrer),
      }),
    );
  }
}
