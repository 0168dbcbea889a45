import { isIndexed, on } from "../../shared/register";
import { recordEvent } from "../lib/events";
import { priceRegistration, recordRenewal } from "../lib/registrations";

/** The `.eth` registrar: the price of each registration and renewal it made in the ETH registry. */
export function register(): void {
  const C = "ensv2/ETHRegistrar";
  if (!isIndexed(C)) return;

  on(`${C}:NameRegistered`, async (context, event) => {
    await priceRegistration(context, event);
    await recordEvent(context, event, "NameRegistered");
  });
  on(`${C}:NameRenewed`, async (context, event) => {
    await recordEvent(context, event, "NameRenewed", await recordRenewal(context, event));
  });
}
