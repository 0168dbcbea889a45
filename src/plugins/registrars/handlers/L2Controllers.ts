import type { Hex } from "viem";
import { controllerEvent } from "../lib/actions";
import { priced } from "../lib/pricing";
import { isIndexed, on } from "../lib/register";
import { subregistryOf } from "../lib/subregistries";

/*
 * The base.eth and linea.eth controllers. Basenames' controllers publish no price (pricing stays null); Lineanames'
 * priced registrations and renewals carry one, its owner-minted and proof-of-humanity registrations do not.
 */

type Named = { name: string; label: Hex };

const BASENAMES = ["EARegistrarController", "RegistrarController", "UpgradeableRegistrarController"].map(
  (c) => `registrars/basenames/${c}`,
);
if (BASENAMES.some(isIndexed)) {
  const sub = subregistryOf("basenames");
  for (const C of BASENAMES.filter(isIndexed)) {
    const contract = C.split("/")[2];
    for (const ev of ["NameRegistered", "NameRenewed"]) {
      on<Named>(`${C}:${ev}`, (context, event) =>
        controllerEvent(context, sub, event, {
          source: `basenames ${contract}:${ev}`,
          labelhash: event.args.label,
          label: event.args.name,
          pricing: null,
          referral: null,
        }),
      );
    }
  }
}

const LINEA = "registrars/lineanames/EthRegistrarController";
if (isIndexed(LINEA)) {
  const sub = subregistryOf("lineanames");
  type Registered = Named & { baseCost: bigint; premium: bigint };
  on<Registered>(`${LINEA}:NameRegistered`, (context, event) =>
    controllerEvent(context, sub, event, {
      source: "lineanames EthRegistrarController:NameRegistered",
      labelhash: event.args.label,
      label: event.args.name,
      pricing: priced(event.args.baseCost, event.args.premium),
      referral: null,
    }),
  );
  for (const ev of ["OwnerNameRegistered", "PohNameRegistered"]) {
    on<Named>(`${LINEA}:${ev}`, (context, event) =>
      controllerEvent(context, sub, event, {
        source: `lineanames EthRegistrarController:${ev}`,
        labelhash: event.args.label,
        label: event.args.name,
        pricing: null,
        referral: null,
      }),
    );
  }
  type Renewed = Named & { cost: bigint };
  on<Renewed>(`${LINEA}:NameRenewed`, (context, event) =>
    controllerEvent(context, sub, event, {
      source: "lineanames EthRegistrarController:NameRenewed",
      labelhash: event.args.label,
      label: event.args.name,
      pricing: priced(event.args.cost),
      referral: null,
    }),
  );
}
