import type { Hex } from "viem";
import { onControllerEvent } from "../lib/on-controller-event";
import { priced } from "../lib/pricing";
import { isIndexed } from "../lib/register";
import { subregistryOf } from "../lib/subregistries";

/*
 * The base.eth and linea.eth controllers. Basenames' controllers publish no price (pricing stays null); Lineanames'
 * priced registrations and renewals carry one, its owner-minted and proof-of-humanity registrations do not.
 */

type Named = { name: string; label: Hex };
const unpriced = (a: Named) => ({ labelhash: a.label, label: a.name, pricing: null });

export function register(): void {
  const BASENAMES = ["EARegistrarController", "RegistrarController", "UpgradeableRegistrarController"].map(
    (c) => `registrars/basenames/${c}`,
  );
  if (BASENAMES.some(isIndexed)) {
    const sub = subregistryOf("basenames");
    for (const contract of BASENAMES.filter(isIndexed)) {
      for (const ev of ["NameRegistered", "NameRenewed"]) onControllerEvent<Named>(sub, contract, ev, unpriced);
    }
  }

  const LINEA = "registrars/lineanames/EthRegistrarController";
  if (isIndexed(LINEA)) {
    const sub = subregistryOf("lineanames");
    type Registered = Named & { baseCost: bigint; premium: bigint };
    onControllerEvent<Registered>(sub, LINEA, "NameRegistered", (a) => ({
      labelhash: a.label,
      label: a.name,
      pricing: priced(a.baseCost, a.premium),
    }));
    for (const ev of ["OwnerNameRegistered", "PohNameRegistered"]) onControllerEvent<Named>(sub, LINEA, ev, unpriced);
    type Renewed = Named & { cost: bigint };
    onControllerEvent<Renewed>(sub, LINEA, "NameRenewed", (a) => ({
      labelhash: a.label,
      label: a.name,
      pricing: priced(a.cost),
    }));
  }
}
