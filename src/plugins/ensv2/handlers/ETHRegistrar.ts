import { isIndexed, on } from "../../shared/register";
import { recordEvent } from "../lib/events";
import { decodeRegistrarEvent } from "../lib/registrar-events";
import { priceRegistration, recordRenewal } from "../lib/registrations";

/**
 * The `.eth` registrar: the price of each registration and renewal it made in the ETH registry; both events join the
 * name's history. They are decoded in the layout of the build that emitted them (lib/registrar-events.ts), not with
 * Ponder's arguments.
 */
export function register(): void {
  const C = "ensv2/ETHRegistrar";
  if (!isIndexed(C)) return;

  on(`${C}:NameRegistered`, async (context, event) => {
    const { args, emitted } = decodeRegistrarEvent(C, "NameRegistered", event);
    const domainId = await priceRegistration(context, { ...event, args });
    await recordEvent(context, { ...event, args: emitted }, "NameRegistered", domainId);
  });
  on(`${C}:NameRenewed`, async (context, event) => {
    const { args, emitted } = decodeRegistrarEvent(C, "NameRenewed", event);
    const domainId = await recordRenewal(context, { ...event, args });
    await recordEvent(context, { ...event, args: emitted }, "NameRenewed", domainId);
  });
}
