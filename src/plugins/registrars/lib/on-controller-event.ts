import { controllerEvent, type ControllerEvent } from "./actions";
import { on } from "./register";
import type { SubregistryRef } from "./subregistries";

/** What a controller event's arguments say about the name it registered or renewed. */
export type ControllerFacts = Omit<ControllerEvent, "source" | "referral"> & Partial<Pick<ControllerEvent, "referral">>;

/**
 * Registers `<contract>:<eventName>` so that its price, referral and plaintext label are merged into the base
 * registrar's action of the same transaction. Most controllers publish no referral: it defaults to none.
 */
export function onControllerEvent<Args>(
  sub: SubregistryRef,
  contract: string,
  eventName: string,
  factsOf: (args: Args) => ControllerFacts,
): void {
  const source = `${contract}:${eventName}`;
  on<Args>(source, (context, event) =>
    controllerEvent(context, sub, event, { source, referral: null, ...factsOf(event.args) }),
  );
}
