import { managedNameOf } from "../../shared/l2-registry";
import { onNameWrapper } from "../../shared/name-wrapper-handlers";

export function register(): void {
  onNameWrapper("lineanames/NameWrapper", () => managedNameOf("lineanames"));
}
