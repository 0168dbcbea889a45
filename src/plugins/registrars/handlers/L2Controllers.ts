import { isIndexed, on } from "../../shared/register";
import { priced } from "../../shared/registrar-pricing";
import { controllerFactsOf } from "../lib/on-controller-event";
import { subregistryOf } from "../lib/subregistries";

/*
 * The base.eth and linea.eth controllers. Basenames' controllers publish no price (pricing stays null); Lineanames'
 * priced registrations and renewals carry one, its owner-minted and proof-of-humanity registrations do not.
 */

const BASENAMES = (["EARegistrarController", "RegistrarController", "UpgradeableRegistrarController"] as const).map(
  (c) => `registrars/basenames/${c}` as const,
);
const LINEA = "registrars/lineanames/EthRegistrarController";

export function register(): void {
  if (BASENAMES.some(isIndexed)) {
    const merge = controllerFactsOf(subregistryOf("basenames"));
    for (const C of BASENAMES.filter(isIndexed)) {
      on(`${C}:NameRegistered`, (context, event) =>
        merge(context, event, `${C}:NameRegistered`, {
          labelhash: event.args.label,
          label: event.args.name,
          pricing: null,
        }),
      );
      on(`${C}:NameRenewed`, (context, event) =>
        merge(context, event, `${C}:NameRenewed`, {
          labelhash: event.args.label,
          label: event.args.name,
          pricing: null,
        }),
      );
    }
  }

  if (isIndexed(LINEA)) {
    const merge = controllerFactsOf(subregistryOf("lineanames"));
    on(`${LINEA}:NameRegistered`, (context, event) =>
      merge(context, event, `${LINEA}:NameRegistered`, {
        labelhash: event.args.label,
        label: event.args.name,
        pricing: priced(event.args.baseCost, event.args.premium),
      }),
    );
    on(`${LINEA}:OwnerNameRegistered`, (context, event) =>
      merge(context, event, `${LINEA}:OwnerNameRegistered`, {
        labelhash: event.args.label,
        label: event.args.name,
        pricing: null,
      }),
    );
    on(`${LINEA}:PohNameRegistered`, (context, event) =>
      merge(context, event, `${LINEA}:PohNameRegistered`, {
        labelhash: event.args.label,
        label: event.args.name,
        pricing: null,
      }),
    );
    on(`${LINEA}:NameRenewed`, (context, event) =>
      merge(context, event, `${LINEA}:NameRenewed`, {
        labelhash: event.args.label,
        label: event.args.name,
        pricing: priced(event.args.cost),
      }),
    );
  }
}
