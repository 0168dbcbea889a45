import type { IndexedEvent, IndexingContext } from "../../shared/ens-handlers/context";
import { type ControllerEvent, controllerEvent } from "./actions";
import type { SubregistryRef } from "./subregistries";

/** What a controller event's arguments say about the name it registered or renewed. */
export type ControllerFacts = Omit<ControllerEvent, "source" | "referral"> & Partial<Pick<ControllerEvent, "referral">>;

/**
 * The handler body shared by every controller event of `sub`: the event's price, referral and plaintext label are
 * merged into the base registrar's action of the same transaction. Most controllers publish no referral: it defaults
 * to none. `source` (`<contract>:<event>`) names the event in errors.
 */
export function controllerFactsOf(sub: SubregistryRef) {
  return (
    context: IndexingContext,
    event: IndexedEvent<unknown>,
    source: string,
    facts: ControllerFacts,
  ): Promise<void> => controllerEvent(context, sub, event, { source, referral: null, ...facts });
}
